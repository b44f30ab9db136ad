"""Class-conditional GAN with a projection discriminator and hinge loss on 2-D "sprite"
vectors, as a Trainer class. Each iteration generates one fake batch, runs two
discriminator updates on fake.detach(), then updates the generator with the same fake
(a fresh discriminator pass, so the generator graph is backwarded exactly once). An EMA
copy of the generator is kept under no_grad."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, Z_DIM, X_DIM, BATCH = 4, 6, 12, 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_CLASSES, 8)
        self.net = nn.Sequential(nn.Linear(Z_DIM + 8, 32), nn.ReLU(), nn.Linear(32, X_DIM), nn.Tanh())

    def forward(self, z, y):
        return self.net(torch.cat([z, self.embed(y)], 1))


class ProjectionDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(X_DIM, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32),
                                  nn.LeakyReLU(0.2))
        self.linear = nn.Linear(32, 1)
        self.class_embed = nn.Embedding(N_CLASSES, 32)

    def forward(self, x, y):
        h = self.body(x)
        return self.linear(h).squeeze(1) + (self.class_embed(y) * h).sum(1)


class Trainer:
    def __init__(self, n_dis=2, ema_decay=0.9):
        torch.manual_seed(13)
        self.G, self.D = Generator(), ProjectionDiscriminator()
        self.G_ema = copy.deepcopy(self.G).requires_grad_(False)
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.0, 0.9))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=4e-4, betas=(0.0, 0.9))
        self.n_dis, self.ema_decay = n_dis, ema_decay
        self.centres = torch.randn(N_CLASSES, X_DIM).tanh()

    def real_batch(self):
        y = torch.randint(0, N_CLASSES, (BATCH,))
        return (self.centres[y] + 0.1 * torch.randn(BATCH, X_DIM)).clamp(-1, 1), y

    def iteration(self):
        z = torch.randn(BATCH, Z_DIM)
        y_fake = torch.randint(0, N_CLASSES, (BATCH,))
        fake = self.G(z, y_fake)
        for _ in range(self.n_dis):
            real, y_real = self.real_batch()
            d_loss = (F.relu(1 - self.D(real, y_real)).mean()
                      + F.relu(1 + self.D(fake.detach(), y_fake)).mean())
            self.opt_d.zero_grad()
            d_loss.backward()
            self.opt_d.step()
        g_loss = -self.D(fake, y_fake).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        with torch.no_grad():
            for p_ema, p in zip(self.G_ema.parameters(), self.G.parameters()):
                p_ema.lerp_(p, 1 - self.ema_decay)
        return d_loss.item(), g_loss.item()


trainer = Trainer()
for it in range(6):
    d_loss, g_loss = trainer.iteration()
    print(f"iter {it} d {d_loss:.6f} g {g_loss:.6f}")
print(f"checksum G {sum(p.sum().item() for p in trainer.G.parameters()):.6f} "
      f"G_ema {sum(p.sum().item() for p in trainer.G_ema.parameters()):.6f} "
      f"D {sum(p.sum().item() for p in trainer.D.parameters()):.6f}")
