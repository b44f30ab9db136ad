"""Variational inference with a masked autoregressive flow: samples are drawn
through the flow (dimension by dimension, MADE conditioner) and the flow is
fitted by reverse KL to an unnormalised banana-shaped target density."""
import math

import torch
import torch.nn as nn

D = 3


class MaskedLinear(nn.Linear):
    def __init__(self, d_in, d_out, mask):
        super().__init__(d_in, d_out)
        self.register_buffer("mask", mask)

    def forward(self, x):
        return nn.functional.linear(x, self.weight * self.mask, self.bias)


class MADE(nn.Module):
    def __init__(self, d=D, hidden=24):
        super().__init__()
        deg_in = torch.arange(1, d + 1)
        deg_h = torch.arange(hidden) % (d - 1) + 1
        mask1 = (deg_h[:, None] >= deg_in[None, :]).float()
        mask2 = (deg_in[:, None] > deg_h[None, :]).float().repeat(2, 1)
        self.l1 = MaskedLinear(d, hidden, mask1)
        self.l2 = MaskedLinear(hidden, 2 * d, mask2)

    def forward(self, x):
        mu, log_s = self.l2(torch.tanh(self.l1(x))).chunk(2, dim=1)
        return mu, torch.clamp(log_s, -3, 3)


class MAFSampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.made = MADE()

    def rsample(self, n):
        z = torch.randn(n, D)
        x = torch.zeros(n, D)
        for i in range(D):
            mu, log_s = self.made(x)
            x[:, i] = mu[:, i] + z[:, i] * torch.exp(log_s[:, i])
        log_q = -0.5 * (z ** 2).sum(1) - 0.5 * D * math.log(2 * math.pi) - log_s.sum(1)
        return x, log_q


def log_banana(x):
    return -0.5 * (x[:, 0] ** 2) / 4 - 0.5 * (x[:, 1] - 0.5 * x[:, 0] ** 2) ** 2 - 0.5 * x[:, 2] ** 2


def main(steps=5):
    torch.manual_seed(0)
    flow = MAFSampler()
    opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
    for step in range(steps):
        x, log_q = flow.rsample(128)
        loss = (log_q - log_banana(x)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} reverse-KL {loss.item():.4f}")
    return flow


if __name__ == "__main__":
    main()
