"""Input layer of the protein solubility transformer."""
import torch
import torch.nn as nn


class ResidueEmbedding(nn.Module):
    """Amino-acid + learned position embeddings. The summary token's row (position 0) is
    kept on the unit sphere, as the pooled representation is compared by cosine later."""

    def __init__(self, n_tokens, dim, max_len):
        super().__init__()
        self.residue = nn.Embedding(n_tokens, dim)
        self.position = nn.Embedding(max_len, dim)

    def forward(self, tokens):
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.residue(tokens) + self.position(positions)
        cls = x[:, :1]
        cls = cls / (cls.norm(dim=-1, keepdim=True) + 1e-6)
        return torch.cat([cls, x[:, 1:]], dim=1)
