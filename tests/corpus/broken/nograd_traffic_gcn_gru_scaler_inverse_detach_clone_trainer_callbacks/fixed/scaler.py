"""Per-sensor z-score scaling for traffic speed data (same API as the sklearn scaler the
data pipeline used before)."""
import torch


class StandardScaler:
    def __init__(self, data):
        self.mean = data.mean(dim=0)
        self.std = data.std(dim=0) + 1e-6

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse_transform(self, x):
        # work on a copy: the in-place ops below must not clobber the caller's tensor
        x = x.clone()
        x.mul_(self.std).add_(self.mean)
        return x
