"""Fingerprint GAN for a small virtual compound library: the generator emits relaxed
48-bit substructure fingerprints and the discriminator scores them. gan_losses() builds
both losses from one batch so they can be logged side by side; the discriminator sees the
fake batch detached, the generator loss scores it again without detaching."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
BITS, NOISE, BATCH = 48, 16, 32


class FingerprintGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(NOISE, 64), nn.ReLU(), nn.Linear(64, BITS))

    def forward(self, z):
        return torch.sigmoid(self.net(z))


class FingerprintDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(BITS, 64), nn.LeakyReLU(0.2))
        self.out = nn.Linear(64, 1)

    def forward(self, fp):
        return self.out(self.body(fp))


SCAFFOLDS = (torch.rand(4, BITS) < 0.3).float()


def sample_library(n):
    """Fingerprints of analogues: one of four scaffolds with a few substituent bits flipped."""
    idx = torch.randint(0, len(SCAFFOLDS), (n,))
    flips = (torch.rand(n, BITS) < 0.05).float()
    return (SCAFFOLDS[idx] + flips) % 2


def bce(logits, value):
    return F.binary_cross_entropy_with_logits(logits, torch.full_like(logits, value))


def discriminator_loss(D, real, fake):
    return bce(D(real), 1.0) + bce(D(fake.detach()), 0.0)


def generator_loss(D, fake):
    # scores the fake batch with the discriminator as it is now (after its step)
    return bce(D(fake), 1.0)


def train(epochs=3, batches_per_epoch=2):
    G, D = FingerprintGenerator(), FingerprintDiscriminator()
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    for epoch in range(epochs):
        for _ in range(batches_per_epoch):
            real = sample_library(BATCH)
            z = torch.randn(BATCH, NOISE)
            fake = G(z)
            d_loss = discriminator_loss(D, real, fake)

            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()

            g_loss = generator_loss(D, fake)
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()
        print(f"epoch {epoch} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")
    with torch.no_grad():
        bits = (G(torch.randn(256, NOISE)) > 0.5).float()
    print(f"mean bits set per generated fingerprint {bits.sum(1).mean().item():.2f}")


if __name__ == "__main__":
    train()
