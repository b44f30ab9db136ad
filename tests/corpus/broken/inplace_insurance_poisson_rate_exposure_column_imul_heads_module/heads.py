import torch
import torch.nn as nn


class FrequencySeverityHead(nn.Module):
    """Two positive outputs per policy: annual claim frequency and mean claim severity (in k$)."""

    def __init__(self, hidden):
        super().__init__()
        self.out = nn.Linear(hidden, 2)

    def forward(self, h):
        return torch.exp(self.out(h))


def apply_exposure(rates, exposure_years):
    # expected claim count = annual frequency * years the policy was in force
    rates[:, 0] *= exposure_years
    return rates
