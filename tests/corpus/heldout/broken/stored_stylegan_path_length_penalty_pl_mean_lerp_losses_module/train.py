"""A small style-based generator (mapping network + modulated synthesis MLP) trained on
1-D "images" (64-sample sine patches) with the non-saturating logistic loss, lazy path
length regularisation every G_REG_EVERY steps, and R1-free discriminator updates."""
import torch
import torch.nn as nn

from losses import PathLengthPenalty, d_logistic, g_nonsaturating

torch.manual_seed(0)
Z_DIM, W_DIM, IMG, BATCH = 8, 16, 64, 16
STEPS, G_REG_EVERY = 7, 2


def real_images(n):
    freq = torch.randint(1, 4, (n, 1)).float()
    phase = torch.rand(n, 1) * 6.283
    grid = torch.linspace(0, 6.283, IMG)
    return torch.sin(freq * grid + phase)


class Mapping(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z_DIM, W_DIM), nn.LeakyReLU(0.2),
                                 nn.Linear(W_DIM, W_DIM), nn.LeakyReLU(0.2))

    def forward(self, z):
        return self.net(z * (z.square().mean(1, keepdim=True) + 1e-8).rsqrt())


class Synthesis(nn.Module):
    def __init__(self):
        super().__init__()
        self.const = nn.Parameter(torch.randn(32))
        self.style1 = nn.Linear(W_DIM, 32)
        self.fc1 = nn.Linear(32, 48)
        self.style2 = nn.Linear(W_DIM, 48)
        self.to_img = nn.Linear(48, IMG)

    def forward(self, w):
        x = self.const.expand(w.shape[0], -1) * (1 + self.style1(w))
        x = nn.functional.leaky_relu(self.fc1(x), 0.2) * (1 + self.style2(w))
        return torch.tanh(self.to_img(x))


mapping, synthesis = Mapping(), Synthesis()
disc = nn.Sequential(nn.Linear(IMG, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
opt_g = torch.optim.Adam(list(mapping.parameters()) + list(synthesis.parameters()),
                         lr=2e-3, betas=(0.0, 0.99))
opt_d = torch.optim.Adam(disc.parameters(), lr=2e-3, betas=(0.0, 0.99))
pl_penalty = PathLengthPenalty()

for step in range(STEPS):
    # discriminator
    fake = synthesis(mapping(torch.randn(BATCH, Z_DIM)))
    d_loss = d_logistic(disc(real_images(BATCH)), disc(fake.detach()))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    # generator
    g_loss = g_nonsaturating(disc(fake))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()

    # lazy path length regularisation
    if step % G_REG_EVERY == 0:
        w = mapping(torch.randn(BATCH // 2, Z_DIM))
        pl_loss = pl_penalty(synthesis(w), w) * G_REG_EVERY
        opt_g.zero_grad()
        pl_loss.backward()
        opt_g.step()
    print(f"step {step} d {d_loss.item():.4f} g {g_loss.item():.4f} pl_mean {pl_penalty.history[-1]:.4f}")
