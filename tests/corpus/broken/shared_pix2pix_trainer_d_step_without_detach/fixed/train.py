"""Tiny pix2pix: a conditional GAN that maps edge maps to 8x8 "photos" with an L1 + GAN loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def generator():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 1, 3, padding=1), nn.Tanh())


def patch_discriminator():
    return nn.Sequential(
        nn.Conv2d(2, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
        nn.Conv2d(8, 1, 3, padding=1))


class Pix2PixTrainer:
    def __init__(self, lambda_l1=10.0):
        self.G, self.D = generator(), patch_discriminator()
        self.opt_G = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_D = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.lambda_l1 = lambda_l1

    def gan_loss(self, pred, is_real):
        target = torch.ones_like(pred) if is_real else torch.zeros_like(pred)
        return F.binary_cross_entropy_with_logits(pred, target)

    def update_D(self, src, tgt, fake):
        self.opt_D.zero_grad()
        loss_real = self.gan_loss(self.D(torch.cat([src, tgt], 1)), True)
        loss_fake = self.gan_loss(self.D(torch.cat([src, fake.detach()], 1)), False)
        loss_D = 0.5 * (loss_real + loss_fake)
        loss_D.backward()
        self.opt_D.step()
        return loss_D.item()

    def update_G(self, src, tgt, fake):
        self.opt_G.zero_grad()
        loss_gan = self.gan_loss(self.D(torch.cat([src, fake], 1)), True)
        loss_G = loss_gan + self.lambda_l1 * F.l1_loss(fake, tgt)
        loss_G.backward()
        self.opt_G.step()
        return loss_G.item()

    def train_step(self, src, tgt):
        fake = self.G(src)
        d = self.update_D(src, tgt, fake)
        g = self.update_G(src, tgt, fake)
        return d, g


def paired_batch(n=4):
    photo = torch.tanh(torch.randn(n, 1, 8, 8).cumsum(-1) * 0.3)
    edges = (photo[..., 1:] - photo[..., :-1]).abs()
    return F.pad(edges, (0, 1)), photo


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Pix2PixTrainer()
    for step in range(4):
        src, tgt = paired_batch()
        d, g = trainer.train_step(src, tgt)
        print(f"step {step}: D {d:.4f} G {g:.4f}")
