"""Variational inference with a RealNVP flow: fit q(x) to an unnormalised 'banana' density by
minimising the reverse KL, E_q[log q(x) - log p~(x)], with samples drawn from the flow."""
import math

import torch
import torch.nn as nn


def banana_log_prob(x):
    x1, x2 = x[:, 0], x[:, 1]
    return -0.5 * (x1 ** 2 / 4.0) - 0.5 * (x2 - 0.5 * x1 ** 2 + 1.0) ** 2


class AffineCoupling(nn.Module):
    def __init__(self, flip, hidden=32):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 2))

    def forward(self, z):
        a, b = z[:, :1], z[:, 1:]
        if self.flip:
            a, b = b, a
        log_s, t = self.net(a).chunk(2, dim=1)
        log_s = torch.tanh(log_s)
        b = b * log_s.exp() + t
        out = torch.cat([b, a], 1) if self.flip else torch.cat([a, b], 1)
        return out, log_s.sum(1)


class RealNVP(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList([AffineCoupling(flip=i % 2 == 1) for i in range(n_layers)])

    @torch.no_grad()
    def sample(self, n):
        z = torch.randn(n, 2)
        log_q = -0.5 * (z ** 2).sum(1) - math.log(2 * math.pi)
        for layer in self.layers:
            z, log_det = layer(z)
            log_q = log_q - log_det
        return z, log_q


def main():
    torch.manual_seed(0)
    flow = RealNVP()
    optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)
    for step in range(6):
        x, log_q = flow.sample(256)
        loss = (log_q - banana_log_prob(x)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} reverse KL (up to const) {loss.item():.4f}")
    xs, _ = flow.sample(1000)
    print("sample mean", [round(v, 4) for v in xs.mean(0).tolist()])


if __name__ == "__main__":
    main()
