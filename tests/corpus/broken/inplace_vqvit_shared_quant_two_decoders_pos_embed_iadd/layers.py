"""Building blocks of the ViT-VQ tokenizer: patch embedding, quantizer, decoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def patchify(images, patch):
    b, c, h, w = images.shape
    x = images.unfold(2, patch, patch).unfold(3, patch, patch)
    return x.permute(0, 2, 3, 1, 4, 5).reshape(b, (h // patch) * (w // patch), c * patch * patch)


class ViTEncoder(nn.Module):
    def __init__(self, n_tokens, patch_dim, dim):
        super().__init__()
        self.embed = nn.Linear(patch_dim, dim)
        self.pos_embedding = nn.Parameter(0.02 * torch.randn(1, n_tokens, dim))
        self.block = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=2 * dim,
                                                dropout=0.0, batch_first=True, norm_first=True)

    def forward(self, patches):
        return self.block(self.embed(patches) + self.pos_embedding)


class VectorQuantizer(nn.Module):
    def __init__(self, n_codes, dim, beta=0.25):
        super().__init__()
        self.codebook = nn.Embedding(n_codes, dim)
        nn.init.uniform_(self.codebook.weight, -1.0 / n_codes, 1.0 / n_codes)
        self.beta = beta

    def forward(self, z):
        flat = z.reshape(-1, z.shape[-1])
        w = self.codebook.weight
        dist = flat.pow(2).sum(1, keepdim=True) - 2 * flat @ w.t() + w.pow(2).sum(1)
        codes = dist.argmin(dim=1)
        zq = self.codebook(codes).view_as(z)
        vq_loss = F.mse_loss(zq, z.detach()) + self.beta * F.mse_loss(z, zq.detach())
        quant = z + (zq - z).detach()
        return quant, vq_loss, codes


class ViTDecoder(nn.Module):
    def __init__(self, n_tokens, dim, out_dim):
        super().__init__()
        self.pos_embedding = nn.Parameter(0.02 * torch.randn(1, n_tokens, dim))
        self.block = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=2 * dim,
                                                dropout=0.0, batch_first=True, norm_first=True)
        self.norm = nn.LayerNorm(dim)
        self.to_patch = nn.Linear(dim, out_dim)

    def forward(self, tokens):
        tokens += self.pos_embedding
        tokens = self.block(tokens)
        return self.to_patch(self.norm(tokens))
