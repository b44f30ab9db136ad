"""WGAN (weight clipping) on a 2-D ring of Gaussians: the critic is stepped and clipped in place,
and the generator is scored by a fresh critic pass afterwards, so no graph sees stale weights."""
import math

import torch
import torch.nn as nn


def ring_batch(n, gen):
    k = torch.randint(0, 8, (n,), generator=gen).float()
    angle = 2 * math.pi * k / 8
    centers = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1) * 2.0
    return centers + 0.05 * torch.randn(n, 2, generator=gen)


class Trainer:
    def __init__(self, seed=7):
        torch.manual_seed(seed)
        self.gen = torch.Generator().manual_seed(seed)
        self.G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(inplace=True), nn.Linear(32, 2))
        # no bias on the critic output: it cancels in E[C(fake)] - E[C(real)]
        self.C = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2, inplace=True),
                               nn.Linear(32, 1, bias=False))
        self.opt_g = torch.optim.RMSprop(self.G.parameters(), lr=5e-4)
        self.opt_c = torch.optim.RMSprop(self.C.parameters(), lr=5e-4)
        self.n_critic = 3
        self.clip = 0.05

    def critic_step(self):
        real = ring_batch(32, self.gen)
        with torch.no_grad():
            fake = self.G(torch.randn(32, 4, generator=self.gen))
        loss_c = self.C(fake).mean() - self.C(real).mean()
        self.opt_c.zero_grad()
        loss_c.backward()
        self.opt_c.step()
        with torch.no_grad():
            for p in self.C.parameters():
                p.clamp_(-self.clip, self.clip)
        return loss_c.item()

    def generator_step(self):
        fake = self.G(torch.randn(32, 4, generator=self.gen))
        loss_g = -self.C(fake).mean()          # critic evaluated after its latest step and clip
        self.opt_g.zero_grad()
        loss_g.backward()
        self.opt_g.step()
        return loss_g.item()

    def run(self, iters=5):
        for it in range(iters):
            lc = sum(self.critic_step() for _ in range(self.n_critic)) / self.n_critic
            lg = self.generator_step()
            print(f"iter {it}: critic={lc:.5f} gen={lg:.5f}")
        params = list(self.G.parameters()) + list(self.C.parameters())
        print(f"param checksum: {sum(p.double().sum().item() for p in params):.6f}")


if __name__ == "__main__":
    Trainer().run()
