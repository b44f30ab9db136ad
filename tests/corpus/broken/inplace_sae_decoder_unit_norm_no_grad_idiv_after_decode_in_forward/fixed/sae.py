"""A ReLU sparse autoencoder over residual-stream activations (Anthropic / SAELens layout:
W_enc is d_in x d_sae, W_dec is d_sae x d_in, a shared pre-encoder bias b_dec)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseAutoencoder(nn.Module):
    def __init__(self, d_in, d_sae):
        super().__init__()
        self.W_enc = nn.Parameter(torch.randn(d_in, d_sae) / d_in ** 0.5)
        self.b_enc = nn.Parameter(torch.zeros(d_sae))
        self.W_dec = nn.Parameter(self.W_enc.detach().t().clone())
        self.b_dec = nn.Parameter(torch.zeros(d_in))

    def encode(self, x):
        return F.relu((x - self.b_dec) @ self.W_enc + self.b_enc)

    def forward(self, x):
        # keep every dictionary atom on the unit sphere so the L1 penalty can't be gamed
        # (renormalised before the decoder reads it, not after)
        with torch.no_grad():
            self.W_dec /= self.W_dec.norm(dim=1, keepdim=True)
        feature_acts = self.encode(x)
        x_hat = feature_acts @ self.W_dec + self.b_dec
        return x_hat, feature_acts
