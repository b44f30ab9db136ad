"""Energy-based model of a 2-D ring, trained with improved contrastive divergence.

Negatives come from short-run Langevin chains. The chains are persistent: a generator
holds the replay buffer in its frame, hands out chain starts, and takes the finished
samples back through send(). The last Langevin step is taken with create_graph=True so a
KL term trains the energy through the sampler."""
import math

import torch
import torch.nn as nn
from torch.func import functional_call


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU(),
                                 nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def replay_feeder(batch, dim, capacity=128, reinit=0.1):
    buffer = torch.rand(capacity, dim) * 4 - 2
    while True:
        idx = torch.randint(0, capacity, (batch,))
        starts = buffer[idx].clone()
        fresh = torch.rand(batch) < reinit
        starts[fresh] = torch.rand(int(fresh.sum()), dim) * 4 - 2
        finished = yield starts
        buffer[idx] = finished            # the trainer sends samples without history


def langevin(energy, x, steps=8, step_size=0.05, noise=0.01):
    x = x.requires_grad_()
    for _ in range(steps - 1):
        grad, = torch.autograd.grad(energy(x).sum(), x)
        x = x - step_size * grad + noise * torch.randn_like(x)
    grad, = torch.autograd.grad(energy(x).sum(), x, create_graph=True)
    return x.detach(), x - step_size * grad


def ring_batch(n):
    angle = torch.rand(n) * 2 * math.pi
    return torch.stack([angle.cos(), angle.sin()], -1) * 1.5 + 0.05 * torch.randn(n, 2)


def main():
    torch.manual_seed(0)
    energy = Energy()
    optimizer = torch.optim.Adam(energy.parameters(), lr=1e-3, betas=(0.0, 0.999))
    feeder = replay_feeder(batch=32, dim=2)
    starts = next(feeder)
    e_gap_ema = 0.0
    for it in range(6):
        x_pos = ring_batch(32)
        x_neg, x_kl = langevin(energy, starts)
        e_pos, e_neg = energy(x_pos), energy(x_neg)
        cd = e_pos.mean() - e_neg.mean() + 0.1 * (e_pos.pow(2).mean() + e_neg.pow(2).mean())
        frozen = {k: v.detach() for k, v in energy.named_parameters()}
        kl = functional_call(energy, frozen, (x_kl,)).mean()
        loss = cd + 0.5 * kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        e_gap_ema = 0.9 * e_gap_ema + 0.1 * (e_neg.mean() - e_pos.mean()).item()
        starts = feeder.send(x_neg)
        print(f"iter {it} cd {cd.item():.4f} kl {kl.item():.4f} gap ema {e_gap_ema:.4f}")
    print("param checksum", round(sum(p.sum().item() for p in energy.parameters()), 5))


if __name__ == "__main__":
    main()
