"""Margin-based classification heads for face recognition."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CurricularFace(nn.Module):
    """CurricularFace (Huang et al., 2020): additive angular margin on the target class, and
    hard negatives re-weighted by t, a running mean of the target cosine that moves from easy
    to hard samples as training progresses."""

    def __init__(self, emb_dim, n_ids, m=0.5, s=16.0, t_momentum=0.01):
        super().__init__()
        self.m, self.s, self.t_momentum = m, s, t_momentum
        self.cos_m, self.sin_m = math.cos(m), math.sin(m)
        self.threshold = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m
        self.kernel = nn.Parameter(torch.randn(emb_dim, n_ids) * 0.01)
        self.register_buffer("t", torch.zeros(1))

    def forward(self, emb, labels):
        cos_theta = (F.normalize(emb) @ F.normalize(self.kernel, dim=0)).clamp(-1, 1)
        target = cos_theta.gather(1, labels[:, None])
        sin_theta = (1.0 - target ** 2).clamp_min(1e-6).sqrt()
        cos_theta_m = target * self.cos_m - sin_theta * self.sin_m
        final_target = torch.where(target > self.threshold, cos_theta_m, target - self.mm)
        self.t = target.mean() * self.t_momentum + (1 - self.t_momentum) * self.t
        hard = cos_theta > cos_theta_m
        logits = torch.where(hard, cos_theta * (self.t + cos_theta), cos_theta)
        logits = logits.scatter(1, labels[:, None], final_target)
        return logits * self.s
