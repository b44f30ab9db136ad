"""Inverse PINN: recover the thermal diffusivity of a rod from a few thermocouple readings.

u(x, t) is a small MLP; the loss has a data term at the sensor points and a physics term
(heat-equation residual) at random collocation points. Both point sets go through the network
in one forward pass.
"""
import math

import torch
import torch.nn as nn

from physics import heat_residual

TRUE_ALPHA = 0.1


class RodPINN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.log_alpha = nn.Parameter(torch.tensor(math.log(0.3)))

    @property
    def alpha(self):
        return self.log_alpha.exp()

    def forward(self, xt):
        return self.net(xt)


def exact(xt):
    x, t = xt[:, 0:1], xt[:, 1:2]
    return torch.sin(math.pi * x) * torch.exp(-TRUE_ALPHA * math.pi ** 2 * t)


def train(epochs=6, pde_weight=0.5):
    torch.manual_seed(0)
    model = RodPINN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    sensors = torch.rand(24, 2)
    readings = exact(sensors) + 0.01 * torch.randn(24, 1)
    for epoch in range(epochs):
        collocation = torch.rand(64, 2)
        xt = torch.cat([sensors, collocation]).requires_grad_(True)
        u = model(xt)
        loss_data = ((u[:24] - readings) ** 2).mean()
        residual = heat_residual(u, xt, model.alpha)[24:]
        loss_pde = (residual ** 2).mean()
        optimizer.zero_grad()
        # gradients of both terms accumulate into .grad before the step
        loss_data.backward()
        (pde_weight * loss_pde).backward()
        optimizer.step()
        print(f"epoch {epoch} data {loss_data.item():.5f} pde {loss_pde.item():.5f} alpha {model.alpha.item():.4f}")


if __name__ == "__main__":
    train()
