"""Bernoulli VAE on synthetic 8x8 "sprites" (a filled rectangle of random size and place)
with KL warm-up and free bits per latent dimension; a preview of the reconstructions is
turned into 8-bit pixels every epoch for the logs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import LatentStats

SIDE, LATENT, HIDDEN, BATCH = 8, 4, 48, 16
WARMUP_STEPS, FREE_BITS = 6, 0.05


def sprites(n, generator):
    h = torch.randint(2, 6, (n,), generator=generator)
    w = torch.randint(2, 6, (n,), generator=generator)
    top = (torch.rand(n, generator=generator) * (SIDE - h + 1)).long()
    left = (torch.rand(n, generator=generator) * (SIDE - w + 1)).long()
    rows, cols = torch.arange(SIDE)[None, :, None], torch.arange(SIDE)[None, None, :]
    inside = (rows >= top[:, None, None]) & (rows < (top + h)[:, None, None]) \
        & (cols >= left[:, None, None]) & (cols < (left + w)[:, None, None])
    return inside.float().flatten(1)


class SpriteVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(SIDE * SIDE, HIDDEN), nn.ELU(),
                                     nn.Linear(HIDDEN, 2 * LATENT))
        self.decoder = nn.Sequential(nn.Linear(LATENT, HIDDEN), nn.ELU(),
                                     nn.Linear(HIDDEN, SIDE * SIDE))

    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=1)
        std = torch.exp(0.5 * logvar)
        z = mu + torch.randn_like(std) * std
        return self.decoder(z), mu, logvar


def loss_terms(logits, x, mu, logvar):
    recon = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / x.size(0)
    kl_per_dim = 0.5 * (mu.pow(2) + logvar.exp() - 1 - logvar).mean(dim=0)
    kl = kl_per_dim.clamp(min=FREE_BITS).sum()
    return recon, kl


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(23)
    data = sprites(48, generator)
    model = SpriteVAE()
    stats = LatentStats(model.encoder, LATENT)
    optimizer = torch.optim.Adam(model.parameters(), lr=4e-3)
    step = 0
    for epoch in range(2):
        for batch in data.split(BATCH):
            logits, mu, logvar = model(batch)
            preview = torch.sigmoid(logits)[:4]
            preview.mul_(255.0).round_()
            recon, kl = loss_terms(logits, batch, mu, logvar)
            beta = min(1.0, step / WARMUP_STEPS)
            loss = recon + beta * kl
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            print(f"step {step} recon {recon.item():.3f} kl {kl.item():.3f} beta {beta:.2f} "
                  f"|mu| {stats.last['mu_abs']:.3f} mean-mu {mu.data.mean().item():.3f} "
                  f"preview-sum {int(preview.sum().item())}")
    stats.handle.remove()
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
