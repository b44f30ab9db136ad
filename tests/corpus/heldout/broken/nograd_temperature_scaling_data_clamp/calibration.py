"""Post-hoc temperature scaling (Guo et al., 2017) for an already trained classifier."""
import torch
import torch.nn as nn


class TemperatureScaler(nn.Module):
    def __init__(self, init_temperature=1.5):
        super().__init__()
        self.temperature = nn.Parameter(torch.full((1,), init_temperature))

    def forward(self, logits):
        # keep the temperature strictly positive while it is being fitted
        t = self.temperature.data.clamp_(min=0.05)
        return logits / t


def expected_calibration_error(logits, labels, n_bins=10):
    probs = torch.softmax(logits, dim=1)
    conf, pred = probs.max(dim=1)
    correct = (pred == labels).float()
    edges = torch.linspace(0, 1, n_bins + 1)
    ece = torch.zeros(())
    for lo, hi in zip(edges[:-1], edges[1:]):
        in_bin = (conf > lo) & (conf <= hi)
        if in_bin.any():
            ece += in_bin.float().mean() * (conf[in_bin].mean() - correct[in_bin].mean()).abs()
    return ece.item()
