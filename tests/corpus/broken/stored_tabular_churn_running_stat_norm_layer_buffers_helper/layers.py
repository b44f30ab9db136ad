"""Normalisation for small, drifting tabular batches: features are normalised with running
statistics (updated from each batch first) instead of the noisy statistics of a 16-row batch."""
import torch
import torch.nn as nn


class RunningStatNorm(nn.Module):
    def __init__(self, dim, momentum=0.2, eps=1e-5):
        super().__init__()
        self.momentum, self.eps = momentum, eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))
        self.register_buffer("batches_seen", torch.zeros((), dtype=torch.long))

    def update_stats(self, x):
        m = self.momentum if self.batches_seen > 0 else 1.0
        self.running_mean = (1 - m) * self.running_mean + m * x.mean(0)
        self.running_var = (1 - m) * self.running_var + m * x.var(0, unbiased=False)
        self.batches_seen += 1

    def forward(self, x):
        if self.training:
            self.update_stats(x)
        x_hat = (x - self.running_mean) / torch.sqrt(self.running_var + self.eps)
        return x_hat * self.weight + self.bias


class ChurnMLP(nn.Module):
    def __init__(self, n_features, hidden=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_features, hidden), RunningStatNorm(hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), RunningStatNorm(hidden), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)
