"""RealNVP-style normalising flow on a 2-D banana distribution. Each affine coupling layer
keeps its last tanh-bounded log-scale for monitoring; after each update the loop reports how
saturated the scales are, reading the tanh output from the autograd graph."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class AffineCoupling(nn.Module):
    def __init__(self, mask, hidden=32):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, 4))
        self.log_scale = None

    def forward(self, x):
        x_fixed = x * self.mask
        s, t = self.net(x_fixed).chunk(2, dim=1)
        self.log_scale = torch.tanh(s)
        log_scale = self.log_scale * (1 - self.mask)
        y = x_fixed + (1 - self.mask) * (x * torch.exp(log_scale) + t)
        return y, log_scale.sum(dim=1)


class Flow(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])]
        self.couplings = nn.ModuleList(AffineCoupling(masks[i % 2]) for i in range(n_layers))

    def log_prob(self, x):
        log_det = torch.zeros(x.size(0))
        for layer in self.couplings:
            x, ld = layer(x)
            log_det = log_det + ld
        base = -0.5 * (x ** 2).sum(dim=1) - math.log(2 * math.pi)
        return base + log_det


def banana(n):
    z = torch.randn(n, 2)
    return torch.stack([z[:, 0], 0.5 * z[:, 1] + 0.4 * (z[:, 0] ** 2 - 1)], dim=1)


flow = Flow()
optimizer = torch.optim.Adam(flow.parameters(), lr=3e-3)
for step in range(6):
    nll = -flow.log_prob(banana(128)).mean()
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
    saturation = []
    for layer in flow.couplings:
        tanh_out = layer.log_scale.grad_fn._saved_result
        saturation.append((tanh_out.abs() > 0.2).float().mean().item())
    print(f"step {step} nll {nll.item():.4f} saturated " + " ".join(f"{s:.2f}" for s in saturation))
