"""Conditional GAN (pix2pix-style) that denoises 1-D sensor traces. The trainer keeps the
generator output on self; the discriminator step sees it detached, the generator step
re-scores it with a fresh discriminator forward after the discriminator update."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LENGTH, BATCH, L1_WEIGHT = 32, 16, 10.0


def traces(n):
    t = torch.linspace(0, 1, LENGTH)
    clean = torch.sin(2 * torch.pi * (2 + 3 * torch.rand(n, 1)) * t) * torch.rand(n, 1)
    return clean + 0.3 * torch.randn(n, LENGTH), clean


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv1d(1, 16, 5, padding=2)
        self.mid = nn.Conv1d(16, 16, 5, padding=2)
        self.dec = nn.Conv1d(16, 1, 5, padding=2)

    def forward(self, noisy):
        h = F.leaky_relu(self.enc(noisy.unsqueeze(1)), 0.2)
        h = h + F.leaky_relu(self.mid(h), 0.2)
        return noisy + self.dec(h).squeeze(1)


class PatchDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(2, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv1d(16, 1, 4, stride=2, padding=1))

    def forward(self, cond, x):
        return self.net(torch.stack([cond, x], dim=1))


class CGANTrainer:
    def __init__(self):
        self.G, self.D = Generator(), PatchDiscriminator()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.fake = None

    def forward(self, noisy):
        self.fake = self.G(noisy)

    def backward_d(self, noisy, clean):
        pred_fake = self.D(noisy, self.fake.detach())
        pred_real = self.D(noisy, clean)
        loss = 0.5 * (F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake))
                      + F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real)))
        loss.backward()
        return loss

    def backward_g(self, noisy, clean):
        pred_fake = self.D(noisy, self.fake)
        adv = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
        loss = adv + L1_WEIGHT * F.l1_loss(self.fake, clean)
        loss.backward()
        return loss

    def optimize(self, noisy, clean):
        self.forward(noisy)
        self.opt_d.zero_grad()
        loss_d = self.backward_d(noisy, clean)
        self.opt_d.step()
        self.opt_g.zero_grad()
        loss_g = self.backward_g(noisy, clean)
        self.opt_g.step()
        return loss_d.item(), loss_g.item()


torch.manual_seed(0)
trainer = CGANTrainer()
for step in range(6):
    loss_d, loss_g = trainer.optimize(*traces(BATCH))
    print(f"step {step} loss_d {loss_d:.4f} loss_g {loss_g:.4f}")
checksum = sum(p.detach().double().sum().item() for p in trainer.G.parameters())
print(f"generator checksum {checksum:.6f}")
