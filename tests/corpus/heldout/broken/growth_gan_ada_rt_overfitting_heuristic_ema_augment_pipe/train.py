"""Small-data GAN on 40 fixed "heartbeat" traces: with so few reals the discriminator
overfits quickly, so both reals and fakes go through adaptive augmentation (ADA) whose
strength follows the discriminator's confidence on reals."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from augment import AdaptiveAugment

torch.manual_seed(0)
LENGTH, Z_DIM, BATCH, STEPS = 32, 8, 16, 10


def heartbeat_dataset(n=40):
    t = torch.linspace(-1, 1, LENGTH)
    width = 0.05 + 0.05 * torch.rand(n, 1)
    shift = 0.2 * (torch.rand(n, 1) - 0.5)
    return torch.exp(-((t - shift) / width) ** 2) - 0.3 * torch.exp(-((t - shift - 0.3) / 0.15) ** 2)


class Trainer:
    def __init__(self):
        self.data = heartbeat_dataset()
        self.G = nn.Sequential(nn.Linear(Z_DIM, 64), nn.LeakyReLU(0.2), nn.Linear(64, LENGTH))
        self.D = nn.Sequential(nn.Linear(LENGTH, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.5, 0.99))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3, betas=(0.5, 0.99))
        self.ada = AdaptiveAugment()

    def step(self):
        real = self.data[torch.randint(0, len(self.data), (BATCH,))]
        fake = self.G(torch.randn(BATCH, Z_DIM))

        real_logits = self.D(self.ada(real))
        d_loss = F.softplus(-real_logits).mean() + F.softplus(self.D(self.ada(fake.detach()))).mean()
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        self.ada.update(real_logits)

        g_loss = F.softplus(-self.D(self.ada(fake))).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return d_loss.item(), g_loss.item()


trainer = Trainer()
for step in range(STEPS):
    d_loss, g_loss = trainer.step()
    print(f"step {step} d {d_loss:.4f} g {g_loss:.4f} ada p {trainer.ada.p:.2f} rt {float(trainer.ada.rt):+.3f}")
