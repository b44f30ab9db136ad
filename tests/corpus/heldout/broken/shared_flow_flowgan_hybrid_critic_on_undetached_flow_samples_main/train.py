"""Flow-GAN: a RealNVP generator trained with a hybrid objective
(adversarial loss from a critic + lambda * maximum likelihood) on a
two-moons style toy set."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from flows import RealNVP2d


@dataclass
class Config:
    steps: int = 6
    batch: int = 64
    mle_weight: float = 0.1
    lr_g: float = 1e-3
    lr_d: float = 2e-3


def two_moons(n, g):
    t = torch.rand(n, generator=g) * 3.1416
    upper = torch.rand(n, generator=g) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2, generator=g)


def main(cfg=Config()):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    flow = RealNVP2d()
    critic = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    opt_g = torch.optim.Adam(flow.parameters(), lr=cfg.lr_g)
    opt_d = torch.optim.Adam(critic.parameters(), lr=cfg.lr_d)

    for step in range(cfg.steps):
        real = two_moons(cfg.batch, g)
        fake = flow.sample(cfg.batch)

        # critic update
        d_loss = F.softplus(-critic(real)).mean() + F.softplus(critic(fake)).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        # generator update: adversarial + maximum likelihood
        adv = F.softplus(-critic(fake)).mean()
        nll = -flow.log_prob(real).mean()
        g_loss = adv + cfg.mle_weight * nll
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"step {step} d {d_loss.item():.4f} adv {adv.item():.4f} nll {nll.item():.4f}")
    return flow


if __name__ == "__main__":
    trained = main()
    print("checksum", round(sum(p.sum().item() for p in trained.parameters()), 4))
