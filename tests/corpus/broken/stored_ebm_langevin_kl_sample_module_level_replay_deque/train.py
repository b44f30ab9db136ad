"""Energy-based model of a 2-D mixture of four Gaussians, trained with (improved)
contrastive divergence: negatives come from short-run Langevin chains started from a
persistent replay buffer, plus a KL term through the last sampler step."""
import random

import torch
import torch.nn as nn

import sampler


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU(),
                                 nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def data_batch(n):
    centers = torch.tensor([[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])
    return centers[torch.randint(0, 4, (n,))] + 0.1 * torch.randn(n, 2)


def train(iterations=6, batch=32, kl_weight=0.5):
    energy = Energy()
    optimizer = torch.optim.Adam(energy.parameters(), lr=1e-3, betas=(0.0, 0.999))
    for it in range(iterations):
        x_pos = data_batch(batch)
        x0 = sampler.init_chains(batch, 2)
        x_neg, x_kl = sampler.langevin(energy, x0)
        e_pos, e_neg = energy(x_pos), energy(x_neg)
        cd_loss = e_pos.mean() - e_neg.mean() + 0.1 * (e_pos.pow(2).mean() + e_neg.pow(2).mean())
        kl_loss = sampler.kl_energy(energy, x_kl).mean()
        loss = cd_loss + kl_weight * kl_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        sampler.push(x_kl)
        print(f"iter {it} cd {cd_loss.item():.4f} kl {kl_loss.item():.4f} "
              f"E+ {e_pos.mean().item():.3f} E- {e_neg.mean().item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    random.seed(0)
    train()
