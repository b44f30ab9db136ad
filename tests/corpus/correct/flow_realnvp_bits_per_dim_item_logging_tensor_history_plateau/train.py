"""Affine-coupling flow on a 2-D spiral, trained by maximum likelihood. Everything logged is
a Python float (.item(), float()); a plateau check rebuilds a tensor from the logged history
with torch.tensor(...) to decide on halving the learning rate. None of that touches the loss
that is backwarded."""
import math

import torch
import torch.nn as nn


class Coupling(nn.Module):
    def __init__(self, flip):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 2))

    def forward(self, x):
        keep, move = (x[:, 1:], x[:, :1]) if self.flip else (x[:, :1], x[:, 1:])
        log_s, shift = self.net(keep).chunk(2, dim=1)
        log_s = 1.5 * torch.tanh(log_s / 1.5)
        moved = move * log_s.exp() + shift
        out = torch.cat([moved, keep], 1) if self.flip else torch.cat([keep, moved], 1)
        return out, log_s.squeeze(1)


class Flow(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.layers = nn.ModuleList(Coupling(i % 2 == 1) for i in range(n))

    def log_prob(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return -0.5 * (x ** 2).sum(1) - math.log(2 * math.pi) + log_det


def spiral(n):
    r = torch.rand(n) * 2.5 + 0.5
    theta = 2.2 * r
    return torch.stack([r * theta.cos(), r * theta.sin()], 1) + 0.08 * torch.randn(n, 2)


def main():
    torch.manual_seed(0)
    flow = Flow()
    optimizer = torch.optim.Adam(flow.parameters(), lr=1e-2)
    history, bits_per_dim = [], []
    for step in range(8):
        x = spiral(128)
        log_px = flow.log_prob(x)
        nll = -log_px.mean()
        optimizer.zero_grad()
        nll.backward()
        optimizer.step()

        history.append(nll.item())
        bits_per_dim.append(float(nll.detach()) / (2 * math.log(2)))
        worst = log_px.min().item()
        if len(history) >= 4:
            recent = torch.tensor(history[-4:])
            if recent[-1] > recent[:-1].min() - 1e-3:
                for group in optimizer.param_groups:
                    group["lr"] *= 0.5
        print(f"step {step} nll {history[-1]:.4f} bpd {bits_per_dim[-1]:.4f} "
              f"worst log p {worst:.3f} lr {optimizer.param_groups[0]['lr']:.4g}")
    summary = torch.tensor(bits_per_dim)
    print(f"mean bpd {summary.mean().item():.4f} best {summary.min().item():.4f}")
    print(f"checksum {sum(p.sum().item() for p in flow.parameters()):.6f}")


if __name__ == "__main__":
    main()
