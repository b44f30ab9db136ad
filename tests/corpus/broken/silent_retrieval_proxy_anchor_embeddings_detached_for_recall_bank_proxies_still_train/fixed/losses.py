"""Proxy-Anchor loss (Kim et al., 2020) with learnable class proxies."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProxyAnchorLoss(nn.Module):
    def __init__(self, n_classes, dim, margin=0.1, alpha=32.0):
        super().__init__()
        self.proxies = nn.Parameter(torch.randn(n_classes, dim) * 0.1)
        self.margin, self.alpha = margin, alpha

    def forward(self, emb, labels):
        cos = F.linear(F.normalize(emb), F.normalize(self.proxies))
        pos_mask = F.one_hot(labels, self.proxies.size(0)).float()
        neg_mask = 1.0 - pos_mask
        pos_exp = torch.exp(-self.alpha * (cos - self.margin)) * pos_mask
        neg_exp = torch.exp(self.alpha * (cos + self.margin)) * neg_mask
        with_pos = pos_mask.sum(0) > 0
        pos_term = torch.log1p(pos_exp.sum(0))[with_pos].sum() / with_pos.sum().clamp(min=1)
        neg_term = torch.log1p(neg_exp.sum(0)).sum() / self.proxies.size(0)
        return pos_term + neg_term
