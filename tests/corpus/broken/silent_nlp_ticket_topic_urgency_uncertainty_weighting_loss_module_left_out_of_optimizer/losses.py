"""Homoscedastic-uncertainty task weighting (Kendall, Gal & Cipolla, 2018)."""
import torch
import torch.nn as nn


class UncertaintyWeighting(nn.Module):
    """sum_i exp(-s_i) * L_i + s_i with one learnable log-variance s_i per task."""

    def __init__(self, n_tasks):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n_tasks))

    def forward(self, task_losses):
        stacked = torch.stack(task_losses)
        return (torch.exp(-self.log_vars) * stacked + self.log_vars).sum()

    def weights(self):
        return torch.exp(-self.log_vars).tolist()
