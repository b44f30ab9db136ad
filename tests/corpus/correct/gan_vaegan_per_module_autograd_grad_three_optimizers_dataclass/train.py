"""VAE-GAN (Larsen et al.) on 8x8 sprite images.

One forward computes everything; the encoder, decoder and discriminator each get the
gradient of THEIR OWN loss (torch.autograd.grad w.r.t. their parameters only, retaining
the graph between calls), then the three optimizers step.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

LATENT, BATCH, STEPS, GAMMA = 6, 12, 6, 0.5


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.LeakyReLU(0.2),
                                      nn.Conv2d(8, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2))
        self.head = nn.Linear(8 * 16, 1)

    def forward(self, x):
        f = self.features(x)
        return f, self.head(f.flatten(1)).squeeze(1)


@dataclass
class VAEGAN:
    encoder: nn.Module
    mu: nn.Module
    logvar: nn.Module
    decoder: nn.Module
    disc: Discriminator
    opt_enc: torch.optim.Optimizer
    opt_dec: torch.optim.Optimizer
    opt_dis: torch.optim.Optimizer

    @classmethod
    def build(cls):
        encoder = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU())
        mu, logvar = nn.Linear(32, LATENT), nn.Linear(32, LATENT)
        decoder = nn.Sequential(nn.Linear(LATENT, 32), nn.ReLU(), nn.Linear(32, 64), nn.Tanh(), nn.Unflatten(1, (1, 8, 8)))
        disc = Discriminator()
        enc_params = [*encoder.parameters(), *mu.parameters(), *logvar.parameters()]
        return cls(encoder, mu, logvar, decoder, disc,
                   torch.optim.RMSprop(enc_params, lr=3e-4),
                   torch.optim.RMSprop(decoder.parameters(), lr=3e-4),
                   torch.optim.RMSprop(disc.parameters(), lr=3e-4))

    def enc_params(self):
        return [*self.encoder.parameters(), *self.mu.parameters(), *self.logvar.parameters()]


def sprites(n):
    imgs = -torch.ones(n, 1, 8, 8)
    for i in range(n):
        r, c = torch.randint(0, 5, (2,)).tolist()
        imgs[i, 0, r:r + 3, c:c + 3] = 1.0
    return imgs


def assign(params, grads):
    for p, g in zip(params, grads):
        p.grad = g


def train_step(m, x):
    h = m.encoder(x)
    mu, logvar = m.mu(h), m.logvar(h)
    z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
    x_tilde = m.decoder(z)
    x_p = m.decoder(torch.randn(x.shape[0], LATENT))

    feat_real, logit_real = m.disc(x)
    feat_tilde, logit_tilde = m.disc(x_tilde)
    _, logit_p = m.disc(x_p)
    ones, zeros = torch.ones_like(logit_real), torch.zeros_like(logit_real)

    kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
    feat_rec = F.mse_loss(feat_tilde, feat_real)
    loss_dis = (F.binary_cross_entropy_with_logits(logit_real, ones)
                + F.binary_cross_entropy_with_logits(logit_tilde, zeros)
                + F.binary_cross_entropy_with_logits(logit_p, zeros))
    loss_dec = GAMMA * feat_rec + (F.binary_cross_entropy_with_logits(logit_tilde, ones)
                                   + F.binary_cross_entropy_with_logits(logit_p, ones))
    loss_enc = kl + feat_rec

    enc_params, dec_params = m.enc_params(), list(m.decoder.parameters())
    dis_params = list(m.disc.parameters())
    assign(enc_params, torch.autograd.grad(loss_enc, enc_params, retain_graph=True))
    assign(dec_params, torch.autograd.grad(loss_dec, dec_params, retain_graph=True))
    assign(dis_params, torch.autograd.grad(loss_dis, dis_params))
    m.opt_enc.step()
    m.opt_dec.step()
    m.opt_dis.step()
    return loss_enc.item(), loss_dec.item(), loss_dis.item()


if __name__ == "__main__":
    torch.manual_seed(29)
    model = VAEGAN.build()
    for step in range(STEPS):
        enc, dec, dis = train_step(model, sprites(BATCH))
        print(f"step {step} enc {enc:.4f} dec {dec:.4f} dis {dis:.4f}")
    modules = (model.encoder, model.mu, model.logvar, model.decoder, model.disc)
    print(f"checksum {sum(p.sum().item() for mod in modules for p in mod.parameters()):.4f}")
