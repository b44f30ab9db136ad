"""Loan-level multi-task model: default, prepayment and loss-given-default."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CreditRiskNet(nn.Module):
    def __init__(self, n_features=10, width=16):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(n_features, 24), nn.ReLU(),
            nn.Linear(24, width), nn.ReLU(),
        )
        self.default_head = nn.Linear(width, 1)
        self.prepay_head = nn.Linear(width, 1)
        self.lgd_head = nn.Linear(width, 1)

    def forward(self, x, targets):
        shared = self.trunk(x)
        default_logit = self.default_head(shared).squeeze(-1)
        prepay_logit = self.prepay_head(shared).squeeze(-1)
        lgd = torch.sigmoid(self.lgd_head(shared)).squeeze(-1)
        return {
            "default": F.binary_cross_entropy_with_logits(default_logit, targets["default"]),
            "prepay": F.binary_cross_entropy_with_logits(prepay_logit, targets["prepay"]),
            "lgd": F.mse_loss(lgd, targets["lgd"]),
        }
