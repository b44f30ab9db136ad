"""Inverse PINN: recover the thermal diffusivity of a rod from 48 noisy temperature probes.
The network u(x, t) fits the probes, satisfies u_t = alpha * u_xx at collocation points and
the zero-temperature ends; alpha itself is learned as exp(log_alpha)."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn

from physics import boundary_loss, diffusivity, heat_residual

ALPHA_TRUE = 0.1


@dataclass
class Config:
    n_probes: int = 48
    n_colloc: int = 96
    steps: int = 7
    lr: float = 1e-2
    pde_weight: float = 1.0
    alpha_init: float = 0.4


class RodPINN(nn.Module):
    def __init__(self, width=32, alpha_init=0.4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width),
                                 nn.Tanh(), nn.Linear(width, 1))
        self.log_alpha = nn.Parameter(torch.tensor(math.log(alpha_init)))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


def probes(n, gen):
    x, t = torch.rand(n, 1, generator=gen), torch.rand(n, 1, generator=gen)
    u = torch.sin(math.pi * x) * torch.exp(-ALPHA_TRUE * math.pi ** 2 * t)
    return x, t, u + 0.01 * torch.randn(n, 1, generator=gen)


def main(cfg=Config()):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    x_obs, t_obs, u_obs = probes(cfg.n_probes, gen)
    model = RodPINN(alpha_init=cfg.alpha_init)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        x_c, t_c = torch.rand(cfg.n_colloc, 1, generator=gen), torch.rand(cfg.n_colloc, 1, generator=gen)
        alpha = diffusivity(model)
        data = (model(x_obs, t_obs) - u_obs).pow(2).mean()
        pde = heat_residual(model, x_c, t_c, alpha).pow(2).mean()
        loss = data + cfg.pde_weight * pde + boundary_loss(model, t_c)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} data {data.item():.4f} pde {pde.item():.5f} alpha {alpha.item():.4f}")
    print(f"recovered alpha {model.log_alpha.exp().item():.4f} (true {ALPHA_TRUE})")


if __name__ == "__main__":
    main()
