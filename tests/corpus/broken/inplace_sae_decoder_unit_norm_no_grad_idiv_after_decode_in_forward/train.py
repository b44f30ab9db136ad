"""Dictionary learning on synthetic activations: each 'activation' is a sparse mix of 24
ground-truth directions in a 16-d space. Trains an SAE with an L1 sparsity penalty and
reports reconstruction MSE, L0 and the fraction of dead latents."""
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from sae import SparseAutoencoder

torch.manual_seed(0)


@dataclass
class Config:
    d_in: int = 16
    d_sae: int = 32
    n_true: int = 24
    batch: int = 64
    steps: int = 6
    lr: float = 3e-3
    l1_coeff: float = 3e-3


def activation_stream(cfg, true_dirs):
    while True:
        on = (torch.rand(cfg.batch, cfg.n_true) < 0.1).float()
        mags = on * torch.rand(cfg.batch, cfg.n_true)
        yield mags @ true_dirs + 0.01 * torch.randn(cfg.batch, cfg.d_in)


def main(cfg=Config()):
    true_dirs = F.normalize(torch.randn(cfg.n_true, cfg.d_in), dim=1)
    sae = SparseAutoencoder(cfg.d_in, cfg.d_sae)
    optimizer = torch.optim.Adam(sae.parameters(), lr=cfg.lr)
    fired = torch.zeros(cfg.d_sae, dtype=torch.bool)
    stream = activation_stream(cfg, true_dirs)
    for step in range(cfg.steps):
        x = next(stream)
        x_hat, acts = sae(x)
        mse = F.mse_loss(x_hat, x)
        l1 = acts.abs().sum(dim=-1).mean()
        loss = mse + cfg.l1_coeff * l1
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        fired |= (acts > 0).any(dim=0)
        l0 = (acts > 0).float().sum(dim=-1).mean().item()
        print(f"step {step} mse {mse.item():.4f} l1 {l1.item():.3f} l0 {l0:.1f}")
    print(f"dead latents {(~fired).float().mean().item():.3f}")


if __name__ == "__main__":
    main()
