"""LSGAN on short 1-D waveforms. To stop the discriminator from forgetting old generator modes
(Shrivastava et al., 2017) half of every fake batch it sees is drawn from a history of
earlier generator outputs."""
import random
from collections import deque

import torch
import torch.nn as nn

SEQ_LEN, Z_DIM, BATCH = 32, 8, 16


def waveforms(n):
    t = torch.linspace(0, 1, SEQ_LEN)
    freq = torch.randint(2, 6, (n, 1)).float()
    phase = torch.rand(n, 1) * 6.28
    return torch.sin(6.28 * freq * t + phase) + 0.05 * torch.randn(n, SEQ_LEN)


class FakeHistory:
    """Keeps the last few generator batches so the discriminator keeps seeing them."""

    def __init__(self, max_batches=10):
        self.buffer = deque(maxlen=max_batches)

    def __len__(self):
        return len(self.buffer)

    def push(self, batch):
        self.buffer.append(batch)

    def sample(self, n):
        old = self.buffer[random.randrange(len(self.buffer))]
        return old[torch.randperm(old.size(0))[:n]]


def train(steps=6):
    random.seed(0)
    torch.manual_seed(0)
    netG = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Linear(64, SEQ_LEN), nn.Tanh())
    netD = nn.Sequential(nn.Linear(SEQ_LEN, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
    opt_g = torch.optim.Adam(netG.parameters(), lr=1e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(netD.parameters(), lr=1e-3, betas=(0.5, 0.999))
    history = FakeHistory()

    for step in range(steps):
        real = waveforms(BATCH)
        fake = netG(torch.randn(BATCH, Z_DIM))

        d_input_fake = fake.detach()
        if len(history) > 0:
            half = BATCH // 2
            d_input_fake = torch.cat([d_input_fake[:half], history.sample(BATCH - half)])
        opt_d.zero_grad()
        loss_d = 0.5 * ((netD(real) - 1) ** 2).mean() + 0.5 * (netD(d_input_fake) ** 2).mean()
        loss_d.backward()
        opt_d.step()

        opt_g.zero_grad()
        loss_g = 0.5 * ((netD(fake) - 1) ** 2).mean()
        loss_g.backward()
        opt_g.step()
        history.push(fake)

        print(f"step {step} loss_d {loss_d.item():.4f} loss_g {loss_g.item():.4f} "
              f"history {len(history)}")


if __name__ == "__main__":
    train()
