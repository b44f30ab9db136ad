"""1-D GAN fitting a mixture of two Gaussians. A forward-hook object on the discriminator
records its confidence on every batch it scores, for the 'is D winning?' progress line."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LATENT, BATCH, STEPS = 4, 64, 8


class ConfidenceMonitor:
    """Forward hook that keeps D's sigmoid confidence for every call during training."""

    def __init__(self, module):
        self.history = []
        self.handle = module.register_forward_hook(self)

    def __call__(self, module, inputs, output):
        self.history.append(torch.sigmoid(output))

    def running_confidence(self, last=6):
        return torch.cat(self.history[-last:]).mean().item()

    def remove(self):
        self.handle.remove()


def real_batch(n):
    centers = torch.where(torch.rand(n, 1) < 0.5, -2.0, 2.0)
    return centers + 0.3 * torch.randn(n, 1)


def train():
    torch.manual_seed(0)
    netG = nn.Sequential(nn.Linear(LATENT, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    netD = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    optG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
    monitor = ConfidenceMonitor(netD)
    ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)
    for step in range(STEPS):
        real = real_batch(BATCH)
        fake = netG(torch.randn(BATCH, LATENT))

        d_loss = (F.binary_cross_entropy_with_logits(netD(real), ones)
                  + F.binary_cross_entropy_with_logits(netD(fake.detach()), zeros))
        optD.zero_grad()
        d_loss.backward()
        optD.step()

        g_loss = F.binary_cross_entropy_with_logits(netD(fake), ones)
        optG.zero_grad()
        g_loss.backward()
        optG.step()
        print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f} "
              f"D confidence {monitor.running_confidence():.3f}")
    monitor.remove()
    return netG


if __name__ == "__main__":
    train()
