"""Super-resolution GAN on random 8x8 -> 16x16 patches, written as a small Trainer class:
every batch runs a discriminator step and then a generator step on the same SR output."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import Discriminator, Generator


def make_patches(n, seed):
    g = torch.Generator().manual_seed(seed)
    hr = torch.rand(n, 3, 16, 16, generator=g) * 2 - 1
    lr = F.avg_pool2d(hr, 2)
    return lr, hr


class SRGANTrainer:
    def __init__(self, adv_weight=1e-2):
        self.netG = Generator()
        self.netD = Discriminator()
        self.optG = torch.optim.Adam(self.netG.parameters(), lr=1e-4, betas=(0.9, 0.999))
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=1e-4, betas=(0.9, 0.999))
        self.bce = nn.BCEWithLogitsLoss()
        self.adv_weight = adv_weight

    def discriminator_step(self, hr, sr):
        real_logits = self.netD(hr)
        fake_logits = self.netD(sr.detach())
        loss_d = (self.bce(real_logits, torch.ones_like(real_logits))
                  + self.bce(fake_logits, torch.zeros_like(fake_logits)))
        self.optD.zero_grad()
        loss_d.backward()
        self.optD.step()
        return loss_d.item()

    def generator_step(self, hr, sr):
        fake_logits = self.netD(sr)
        content = F.mse_loss(sr, hr)
        adversarial = self.bce(fake_logits, torch.ones_like(fake_logits))
        loss_g = content + self.adv_weight * adversarial
        self.optG.zero_grad()
        loss_g.backward()
        self.optG.step()
        return content.item(), adversarial.item()

    def train_step(self, lr, hr):
        sr = self.netG(lr)
        loss_d = self.discriminator_step(hr, sr)
        content, adversarial = self.generator_step(hr, sr)
        return loss_d, content, adversarial


def main():
    torch.manual_seed(0)
    trainer = SRGANTrainer()
    for step in range(4):
        lr, hr = make_patches(4, seed=step)
        loss_d, content, adversarial = trainer.train_step(lr, hr)
        print(f"step {step} D {loss_d:.4f} content {content:.4f} adv {adversarial:.4f}")


if __name__ == "__main__":
    main()
