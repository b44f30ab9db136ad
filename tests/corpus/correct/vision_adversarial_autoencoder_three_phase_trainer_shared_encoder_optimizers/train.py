"""Adversarial autoencoder (Makhzani et al.) on 8x8 glyphs with a 2-D latent space
matched to a mixture of four Gaussians.

Each batch runs the three phases of the paper: reconstruction (encoder + decoder),
regularisation of the latent discriminator, then the encoder as generator. The encoder
belongs to two optimizers (autoencoder and generator phase).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def glyph_batch(n):
    imgs = torch.zeros(n, 64)
    kinds = torch.randint(0, 4, (n,))
    for i, k in enumerate(kinds.tolist()):
        img = imgs[i].view(8, 8)
        if k == 0:
            img[3:5, :] = 1
        elif k == 1:
            img[:, 3:5] = 1
        elif k == 2:
            img[:4, :4] = 1
        else:
            img[4:, 4:] = 1
    return imgs


def prior_sample(n):
    centre = torch.randint(0, 4, (n,)).float() * (math.pi / 2)
    return 2 * torch.stack([centre.cos(), centre.sin()], 1) + 0.3 * torch.randn(n, 2)


class AAETrainer:
    def __init__(self, seed=37, batch=16):
        torch.manual_seed(seed)
        self.batch = batch
        self.encoder = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2))
        self.decoder = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 64))
        self.z_critic = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
        self.opt_ae = torch.optim.Adam([*self.encoder.parameters(), *self.decoder.parameters()], lr=1e-3)
        self.opt_disc = torch.optim.Adam(self.z_critic.parameters(), lr=5e-4)
        self.opt_gen = torch.optim.Adam(self.encoder.parameters(), lr=5e-4)
        self.metrics = {"recon": [], "disc": [], "gen": []}

    def reconstruction_phase(self, x):
        z = self.encoder(x)
        recon = F.binary_cross_entropy_with_logits(self.decoder(z), x)
        self.opt_ae.zero_grad()
        recon.backward()
        self.opt_ae.step()
        return z, recon.item()

    def discriminator_phase(self, z_encoded):
        z_prior = prior_sample(z_encoded.shape[0])
        logits_prior = self.z_critic(z_prior)
        logits_enc = self.z_critic(z_encoded.detach())
        loss = (F.binary_cross_entropy_with_logits(logits_prior, torch.ones_like(logits_prior))
                + F.binary_cross_entropy_with_logits(logits_enc, torch.zeros_like(logits_enc)))
        self.opt_disc.zero_grad()
        loss.backward()
        self.opt_disc.step()
        return loss.item()

    def generator_phase(self, x):
        logits = self.z_critic(self.encoder(x))
        loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
        self.opt_gen.zero_grad()
        loss.backward()
        self.opt_gen.step()
        return loss.item()

    def train_epoch(self, epoch, batches=3):
        for b in range(batches):
            x = glyph_batch(self.batch)
            z, recon = self.reconstruction_phase(x)
            disc = self.discriminator_phase(z)
            gen = self.generator_phase(x)
            for key, value in (("recon", recon), ("disc", disc), ("gen", gen)):
                self.metrics[key].append(value)
            print(f"epoch {epoch} batch {b} recon {recon:.4f} disc {disc:.4f} gen {gen:.4f}")


if __name__ == "__main__":
    trainer = AAETrainer()
    for epoch in range(2):
        trainer.train_epoch(epoch)
    with torch.no_grad():
        codes = trainer.encoder(glyph_batch(64))
    print(f"latent mean {codes.mean(0).tolist()[0]:.4f} {codes.mean(0).tolist()[1]:.4f}")
    modules = (trainer.encoder, trainer.decoder, trainer.z_critic)
    print(f"checksum {sum(p.sum().item() for m in modules for p in m.parameters()):.4f}")
