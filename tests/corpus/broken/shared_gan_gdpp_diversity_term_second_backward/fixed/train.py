"""GAN on an 8-mode ring of 2-D gaussians with a GDPP diversity term (Elfeki et al.).
The generator update backwards its adversarial loss first, then the GDPP loss that
compares the eigen-spectrum of discriminator features on fake and real samples."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
Z_DIM, BATCH, STEPS, GDPP_WEIGHT = 4, 32, 5, 1.0


def ring_batch(n):
    mode = torch.randint(0, 8, (n,)).float() * (2 * math.pi / 8)
    centers = torch.stack([mode.cos(), mode.sin()], dim=1) * 2.0
    return centers + 0.05 * torch.randn(n, 2)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2),
                                      nn.Linear(32, 8), nn.LeakyReLU(0.2))
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        phi = self.features(x)
        return self.head(phi), phi


def gdpp_loss(phi_fake, phi_real):
    """Match the normalised eigenvalues of the feature kernels (eigvalsh is differentiable)."""
    def spectrum(phi):
        phi = F.normalize(phi, dim=1)
        vals = torch.linalg.eigvalsh(phi.t() @ phi / phi.size(0) + 1e-3 * torch.eye(phi.size(1)))
        return vals / vals.sum()
    return F.mse_loss(spectrum(phi_fake), spectrum(phi_real))


G = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
D = Discriminator()
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.99))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.99))
ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)

for step in range(STEPS):
    real = ring_batch(BATCH)
    fake = G(torch.randn(BATCH, Z_DIM))

    d_real, _ = D(real)
    d_fake, _ = D(fake.detach())
    d_loss = F.binary_cross_entropy_with_logits(d_real, ones) + \
        F.binary_cross_entropy_with_logits(d_fake, zeros)
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    g_logits, phi_fake = D(fake)
    with torch.no_grad():
        _, phi_real = D(real)
    g_adv = F.binary_cross_entropy_with_logits(g_logits, ones)
    g_div = GDPP_WEIGHT * gdpp_loss(phi_fake, phi_real)
    opt_g.zero_grad()
    (g_adv + g_div).backward()
    opt_g.step()
    print(f"step {step} d_loss {d_loss.item():.4f} g_adv {g_adv.item():.4f} gdpp {g_div.item():.5f}")
