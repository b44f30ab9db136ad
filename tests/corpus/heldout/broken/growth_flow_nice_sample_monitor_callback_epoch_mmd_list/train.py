"""NICE (additive coupling) density model on a 4-D correlated Gaussian
mixture, trained by maximum likelihood in a small Trainer with callbacks.
SampleMonitor draws a few samples after every optimizer step and reports an
MMD two-sample statistic against held-out data at the end of each epoch."""
import math

import torch
import torch.nn as nn

DIM = 4


class AdditiveCoupling(nn.Module):
    def __init__(self, flip):
        super().__init__()
        self.flip = flip
        self.m = nn.Sequential(nn.Linear(DIM // 2, 32), nn.ReLU(), nn.Linear(32, DIM // 2))

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        if self.flip:
            a, b = b, a
        b = b + self.m(a)
        return torch.cat([b, a] if self.flip else [a, b], dim=1)

    def inverse(self, y):
        a, b = y.chunk(2, dim=1)
        if self.flip:
            b, a = a, b
        b = b - self.m(a)
        return torch.cat([b, a] if self.flip else [a, b], dim=1)


class NICE(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList(AdditiveCoupling(i % 2 == 1) for i in range(n_layers))
        self.log_scale = nn.Parameter(torch.zeros(DIM))

    def log_prob(self, x):
        for layer in self.layers:
            x = layer(x)
        z = x * torch.exp(self.log_scale)
        return -0.5 * (z ** 2).sum(1) - 0.5 * DIM * math.log(2 * math.pi) + self.log_scale.sum()

    def sample(self, n):
        x = torch.randn(n, DIM) * torch.exp(-self.log_scale)
        for layer in reversed(self.layers):
            x = layer.inverse(x)
        return x


def mmd(x, y, bandwidth=1.0):
    k = lambda a, b: torch.exp(-torch.cdist(a, b) ** 2 / (2 * bandwidth ** 2)).mean()
    return (k(x, x) + k(y, y) - 2 * k(x, y)).item()


class SampleMonitor:
    def __init__(self, reference, per_step=32):
        self.reference = reference
        self.per_step = per_step
        self.samples = []

    def on_step_end(self, trainer):
        self.samples.append(trainer.flow.sample(self.per_step))

    def on_epoch_end(self, trainer, epoch):
        drawn = torch.cat(self.samples)
        print(f"epoch {epoch} MMD(model, data) {mmd(drawn, self.reference):.4f}")


class Trainer:
    def __init__(self, flow, callbacks):
        self.flow = flow
        self.opt = torch.optim.Adam(flow.parameters(), lr=3e-3)
        self.callbacks = callbacks

    def fit(self, batches, epochs=2):
        for epoch in range(epochs):
            for x in batches:
                nll = -self.flow.log_prob(x).mean()
                self.opt.zero_grad()
                nll.backward()
                self.opt.step()
                for cb in self.callbacks:
                    cb.on_step_end(self)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)
            print(f"epoch {epoch} nll {nll.item():.4f}")


def mixture(n, g):
    centers = torch.tensor([[2.0, 0.0, 1.0, -1.0], [-2.0, 1.0, -1.0, 0.5]])
    idx = torch.randint(0, 2, (n,), generator=g)
    return centers[idx] + 0.5 * torch.randn(n, DIM, generator=g)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(3)
    train_batches = [mixture(64, g) for _ in range(5)]
    monitor = SampleMonitor(reference=mixture(128, g))
    Trainer(NICE(), [monitor]).fit(train_batches)
