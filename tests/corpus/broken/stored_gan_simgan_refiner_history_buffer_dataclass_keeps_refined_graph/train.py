"""SimGAN-style refiner on 1-D "synthetic vs real" sensor traces: the refiner makes simulated
traces look real (adversarial loss) while staying close to its input (self-regularisation)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from history import ImageHistoryBuffer

LENGTH, BATCH = 16, 8


def synthetic_traces(n):
    t = torch.linspace(0, 1, LENGTH)
    return torch.sin(6.283 * (1 + torch.rand(n, 1)) * t)


def real_traces(n):
    clean = synthetic_traces(n)
    return clean + 0.2 * torch.randn(n, LENGTH) + 0.3 * clean.roll(1, dims=1)


class RefinerTrainer:
    def __init__(self, self_reg=0.5):
        self.refiner = nn.Sequential(nn.Conv1d(1, 8, 3, padding=1), nn.ReLU(),
                                     nn.Conv1d(8, 1, 3, padding=1))
        self.disc = nn.Sequential(nn.Conv1d(1, 8, 3, padding=1, stride=2), nn.LeakyReLU(0.2),
                                  nn.Flatten(), nn.Linear(8 * LENGTH // 2, 1))
        self.opt_r = torch.optim.Adam(self.refiner.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(self.disc.parameters(), lr=1e-3)
        self.history = ImageHistoryBuffer(capacity=32)
        self.self_reg = self_reg

    def refine(self, synth):
        return synth + self.refiner(synth.unsqueeze(1)).squeeze(1)

    def d_logits(self, traces):
        return self.disc(traces.unsqueeze(1)).squeeze(1)

    def step(self):
        synth, real = synthetic_traces(BATCH), real_traces(BATCH)
        refined = self.refine(synth)

        fake_for_d = refined.detach()
        if len(self.history) >= BATCH // 2:
            fake_for_d = torch.cat([fake_for_d[:BATCH // 2], self.history.sample(BATCH // 2)])
        real_logits, fake_logits = self.d_logits(real), self.d_logits(fake_for_d)
        d_loss = (F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
                  + F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits)))
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        self.history.push(refined)

        adv_logits = self.d_logits(refined)
        r_loss = (F.binary_cross_entropy_with_logits(adv_logits, torch.ones_like(adv_logits))
                  + self.self_reg * F.l1_loss(refined, synth))
        self.opt_r.zero_grad()
        r_loss.backward()
        self.opt_r.step()
        return d_loss.item(), r_loss.item()


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    trainer = RefinerTrainer()
    for it in range(5):
        d, r = trainer.step()
        print(f"step {it} D {d:.4f} R {r:.4f}")
