"""1-D GAN on a mixture of three Gaussians. The trainer keeps the losses of the last step in
a StepRecord dataclass, and callbacks read it after each step for monitoring."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

LATENT, BATCH = 4, 64


@dataclass
class StepRecord:
    d_loss_real: torch.Tensor = None
    d_loss_fake: torch.Tensor = None
    g_loss: torch.Tensor = None
    d_real_logits: torch.Tensor = None
    extras: dict = field(default_factory=dict)


class DiscriminatorAccuracy:
    """How often D calls real samples real: a collapse detector."""

    def on_step_end(self, trainer, step):
        real_logits = trainer.record.d_real_logits
        acc = (real_logits > 0).float().mean().item()
        trainer.record.extras["d_acc_real"] = acc
        if step >= 3 and acc > 0.98:
            print(f"  step {step}: discriminator is winning (acc on real {acc:.2f})")


class GANTrainer:
    def __init__(self, callbacks):
        self.G = nn.Sequential(nn.Linear(LATENT, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.D = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.callbacks = callbacks
        self.record = StepRecord()

    @staticmethod
    def real_batch(n):
        centers = torch.tensor([-2.0, 0.0, 2.0])[torch.randint(0, 3, (n,))]
        return (centers + 0.2 * torch.randn(n)).unsqueeze(1)

    def step(self, step):
        real = self.real_batch(BATCH)
        fake = self.G(torch.randn(BATCH, LATENT))
        d_real, d_fake = self.D(real), self.D(fake.detach())
        d_loss_real = F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real))
        d_loss_fake = F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake))
        self.opt_d.zero_grad()
        (d_loss_real + d_loss_fake).backward()
        self.opt_d.step()

        g_logits = self.D(fake)
        g_loss = F.binary_cross_entropy_with_logits(g_logits, torch.ones_like(g_logits))
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        self.record = StepRecord(d_loss_real, d_loss_fake, g_loss, d_real.detach())
        for cb in self.callbacks:
            cb.on_step_end(self, step)

    def fit(self, steps):
        for s in range(steps):
            self.step(s)
            r = self.record
            print(f"step {s} d_real {r.d_loss_real.item():.4f} d_fake {r.d_loss_fake.item():.4f} "
                  f"g {r.g_loss.item():.4f} d_acc_real {r.extras['d_acc_real']:.2f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    GANTrainer(callbacks=[DiscriminatorAccuracy()]).fit(steps=5)
