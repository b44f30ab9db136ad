"""A tiny differentiable camera ISP: per-channel white balance, a 3x3 colour-correction
matrix and a learnable gamma, meant to be tuned jointly with the downstream classifier
(in the spirit of 'task-aware ISP' work)."""
import torch
import torch.nn as nn


class LearnableISP(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_wb = nn.Parameter(torch.zeros(3))
        self.ccm = nn.Parameter(torch.eye(3))
        self.log_gamma = nn.Parameter(torch.tensor(0.0))

    def forward(self, raw):                       # raw: (B, 3, H, W), linear in [0, 1]
        x = raw * self.log_wb.exp()[None, :, None, None]
        x = torch.einsum("ij,bjhw->bihw", self.ccm, x)
        x = x.clamp(min=1e-4) ** (1.0 / (2.2 * self.log_gamma.exp()))
        return x

    def describe(self):
        wb = ", ".join(f"{v:.3f}" for v in self.log_wb.exp().tolist())
        return f"wb [{wb}]  gamma {2.2 * self.log_gamma.exp().item():.3f}"
