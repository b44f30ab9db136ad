"""Imagic-style reconstruction fine-tuning of a tiny denoiser: the target sample is DDIM-inverted
to a noise latent once, then the denoiser is fine-tuned so that deterministic DDIM sampling
from that latent reproduces the target."""
import torch
import torch.nn as nn
import torch.nn.functional as F

DIM, T_STEPS = 8, 4


class EpsModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.t_embed = nn.Embedding(T_STEPS + 1, 16)
        self.net = nn.Sequential(nn.Linear(DIM + 16, 64), nn.SiLU(), nn.Linear(64, DIM))

    def forward(self, x, t):
        temb = self.t_embed(torch.full((x.size(0),), t, dtype=torch.long))
        return self.net(torch.cat([x, temb], -1))


ALPHA_BAR = torch.linspace(0.99, 0.2, T_STEPS + 1)


def ddim_step(x, eps, a_from, a_to):
    x0_pred = (x - (1 - a_from).sqrt() * eps) / a_from.sqrt()
    return a_to.sqrt() * x0_pred + (1 - a_to).sqrt() * eps


def ddim_invert(model, x0):
    x = x0
    for t in range(T_STEPS):
        x = ddim_step(x, model(x, t), ALPHA_BAR[t], ALPHA_BAR[t + 1])
    return x


def ddim_sample(model, x_T):
    x = x_T
    for t in range(T_STEPS, 0, -1):
        x = ddim_step(x, model(x, t), ALPHA_BAR[t], ALPHA_BAR[t - 1])
    return x


torch.manual_seed(0)
model = EpsModel()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
target = torch.tanh(torch.randn(2, DIM))

z_T = ddim_invert(model, target)
for it in range(5):
    recon = ddim_sample(model, z_T)
    loss = F.mse_loss(recon, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it}: reconstruction mse {loss.item():.6f}")
