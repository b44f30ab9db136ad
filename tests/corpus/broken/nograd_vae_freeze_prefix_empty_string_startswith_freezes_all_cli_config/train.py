"""Bernoulli VAE on synthetic 6x6 bar images (one horizontal and one vertical bar each).
The same script pretrains from scratch or fine-tunes part of the model, depending on
--freeze-prefix; the default empty prefix is meant to train every parameter."""
import argparse
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from finetune import apply_freeze, count_trainable

SIDE = 6


@dataclass
class VAEConfig:
    latent: int = 4
    hidden: int = 32
    lr: float = 3e-3
    beta: float = 1.0
    epochs: int = 3
    batch: int = 16
    freeze_prefix: str = ""


def parse_config():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=VAEConfig.epochs)
    parser.add_argument("--beta", type=float, default=VAEConfig.beta)
    parser.add_argument("--freeze-prefix", default=VAEConfig.freeze_prefix)
    args = parser.parse_args()
    return VAEConfig(epochs=args.epochs, beta=args.beta, freeze_prefix=args.freeze_prefix)


def bar_images(n, generator):
    rows = torch.randint(0, SIDE, (n,), generator=generator)
    cols = torch.randint(0, SIDE, (n,), generator=generator)
    images = torch.zeros(n, SIDE, SIDE)
    images[torch.arange(n), rows, :] = 1.0
    images[torch.arange(n), :, cols] = 1.0
    return images.flatten(1)


class VAE(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(SIDE * SIDE, cfg.hidden), nn.ReLU(),
                                     nn.Linear(cfg.hidden, 2 * cfg.latent))
        self.decoder = nn.Sequential(nn.Linear(cfg.latent, cfg.hidden), nn.ReLU(),
                                     nn.Linear(cfg.hidden, SIDE * SIDE))

    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.decoder(z), mu, logvar


def elbo_loss(logits, x, mu, logvar, beta):
    recon = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return recon + beta * kl, recon, kl


def main():
    cfg = parse_config()
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(5)
    data = bar_images(32, generator)
    model = apply_freeze(VAE(cfg), cfg.freeze_prefix)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    print(f"trainable parameters: {count_trainable(model)}")
    for epoch in range(cfg.epochs):
        for batch in data.split(cfg.batch):
            logits, mu, logvar = model(batch)
            loss, recon, kl = elbo_loss(logits, batch, mu, logvar, cfg.beta)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f} recon {recon.item():.3f} kl {kl.item():.3f}")


if __name__ == "__main__":
    main()
