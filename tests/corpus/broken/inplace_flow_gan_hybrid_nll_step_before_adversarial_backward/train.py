"""Flow-GAN style hybrid training of a RealNVP on a noisy crescent: maximum likelihood on
the data plus an adversarial term on the flow's samples from a small discriminator. The two
objectives are applied as two separate flow updates so the NLL step is not swamped by the
adversarial gradient."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from flows import RealNVP

torch.manual_seed(0)
BATCH, ADV_WEIGHT = 128, 0.1


def crescent(n):
    theta = math.pi * torch.rand(n)
    pts = torch.stack([theta.cos(), theta.sin()], dim=1) * 2.0
    return pts + 0.1 * torch.randn(n, 2)


def train(iterations=6):
    flow = RealNVP()
    disc = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    flow_opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
    disc_opt = torch.optim.Adam(disc.parameters(), lr=1e-3)
    for it in range(iterations):
        real = crescent(BATCH)

        # discriminator: real crescent vs flow samples
        with torch.no_grad():
            fake = flow.sample(BATCH)
        real_logits, fake_logits = disc(real), disc(fake)
        d_loss = (F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
                  + F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits)))
        disc_opt.zero_grad()
        d_loss.backward()
        disc_opt.step()

        # flow: maximum-likelihood update, then adversarial update
        nll = -flow.log_prob(real).mean()
        samples = flow.sample(BATCH)
        sample_logits = disc(samples)
        adv = F.binary_cross_entropy_with_logits(sample_logits, torch.ones_like(sample_logits))

        flow_opt.zero_grad()
        nll.backward()
        flow_opt.step()

        flow_opt.zero_grad()
        (ADV_WEIGHT * adv).backward()
        flow_opt.step()
        print(f"iter {it} nll {nll.item():.4f} adv {adv.item():.4f} d_loss {d_loss.item():.4f}")


train()
