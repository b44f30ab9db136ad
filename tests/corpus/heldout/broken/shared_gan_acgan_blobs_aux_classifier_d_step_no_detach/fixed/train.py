"""AC-GAN on a 2-D mixture: three labelled Gaussian blobs. The discriminator has two heads,
real/fake and class, and the generator is conditioned on a one-hot label."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
N_CLASSES, Z_DIM, BATCH, STEPS = 3, 6, 48, 6
CENTERS = torch.tensor([[math.cos(a), math.sin(a)] for a in (0.0, 2.1, 4.2)]) * 2.0


def real_batch(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    return CENTERS[labels] + 0.15 * torch.randn(n, 2), labels


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z_DIM + N_CLASSES, 64), nn.ReLU(),
                                 nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, z, labels):
        return self.net(torch.cat([z, F.one_hot(labels, N_CLASSES).float()], dim=1))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64),
                                  nn.LeakyReLU(0.2))
        self.adv_head = nn.Linear(64, 1)
        self.cls_head = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        h = self.body(x)
        return self.adv_head(h).squeeze(1), self.cls_head(h)


G, D = Generator(), Discriminator()
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

for step in range(STEPS):
    real, real_labels = real_batch(BATCH)
    z = torch.randn(BATCH, Z_DIM)
    gen_labels = torch.randint(0, N_CLASSES, (BATCH,))
    fake = G(z, gen_labels)

    # ---- discriminator: real vs fake, plus auxiliary class loss on both ----
    opt_d.zero_grad()
    adv_real, cls_real = D(real)
    adv_fake, cls_fake = D(fake.detach())
    loss_d = (bce(adv_real, torch.ones_like(adv_real)) + bce(adv_fake, torch.zeros_like(adv_fake))
              + F.cross_entropy(cls_real, real_labels) + F.cross_entropy(cls_fake, gen_labels))
    loss_d.backward()
    opt_d.step()

    # ---- generator: fool the adversarial head, match the requested class ----
    opt_g.zero_grad()
    adv_g, cls_g = D(fake)
    loss_g = bce(adv_g, torch.ones_like(adv_g)) + F.cross_entropy(cls_g, gen_labels)
    loss_g.backward()
    opt_g.step()

    acc = (cls_real.argmax(1) == real_labels).float().mean().item()
    print(f"step {step} loss_d {loss_d.item():.4f} loss_g {loss_g.item():.4f} cls_acc {acc:.2f}")
