"""Memory-saving WGAN-GP on 16-dim "spectra": the critic's residual blocks run under
torch.utils.checkpoint (non-reentrant), and so does the generator's body. The gradient
penalty differentiates through the checkpointed critic with create_graph=True, so the
recomputation itself has to be differentiable a second time."""
import argparse

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

DIM, Z_DIM = 16, 6


class ResBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(width, width), nn.Linear(width, width)

    def forward(self, x):
        return x + self.fc2(torch.tanh(self.fc1(x)))


class Critic(nn.Module):
    def __init__(self, width=32, depth=3):
        super().__init__()
        self.stem = nn.Linear(DIM, width)
        self.blocks = nn.ModuleList(ResBlock(width) for _ in range(depth))
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False)
        return self.head(h)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, DIM))

    def forward(self, z):
        return checkpoint_sequential(self.body, 2, z, use_reentrant=False)


def spectra(n):
    peak = torch.randint(3, DIM - 3, (n, 1)).float()
    bins = torch.arange(DIM).float()
    return torch.exp(-(bins - peak).pow(2) / 4.0) + 0.02 * torch.randn(n, DIM)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.shape[0], 1)
    mix = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    (grad,) = torch.autograd.grad(critic(mix).sum(), mix, create_graph=True)
    return ((grad.norm(2, dim=1) - 1) ** 2).mean()


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=4)
    parser.add_argument("--n-critic", type=int, default=2)
    parser.add_argument("--gp", type=float, default=10.0)
    parser.add_argument("--batch", type=int, default=24)
    args = parser.parse_args(argv)

    torch.manual_seed(47)
    G, C = Generator(), Critic()
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
    opt_c = torch.optim.Adam(C.parameters(), lr=1e-4, betas=(0.5, 0.9))
    for it in range(args.iters):
        for _ in range(args.n_critic):
            real = spectra(args.batch)
            with torch.no_grad():
                fake = G(torch.randn(args.batch, Z_DIM))
            gp = gradient_penalty(C, real, fake)
            real_scores = C(real)
            wdist = real_scores.mean() - C(fake).mean()
            drift = 1e-3 * real_scores.pow(2).mean()  # keeps critic scores near 0 (ProGAN)
            loss_c = -wdist + args.gp * gp + drift
            opt_c.zero_grad()
            loss_c.backward()
            opt_c.step()
        loss_g = -C(G(torch.randn(args.batch, Z_DIM))).mean()
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        print(f"iter {it} wdist {wdist.item():.4f} gp {gp.item():.4f} loss_g {loss_g.item():.4f}")
    total = sum(p.sum().item() for m in (G, C) for p in m.parameters())
    print(f"checksum {total:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
