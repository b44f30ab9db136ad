"""Improved-DDPM style training on a 2-D toy distribution: the denoiser predicts the noise
and, with a second head, an interpolation between the two variance bounds. The hybrid loss
adds the variational-bound term (KL between the true posterior and the model's Gaussian,
with the predicted mean frozen) to the noise MSE; the KL helper was ported from a NumPy
reference implementation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T, LAMBDA_VLB, BATCH = 100, 0.01, 128
betas = torch.linspace(1e-4, 0.05, T)
alphas = 1 - betas
abar = torch.cumprod(alphas, 0)
abar_prev = torch.cat([torch.ones(1), abar[:-1]])
post_var = betas * (1 - abar_prev) / (1 - abar)
coef_x0 = betas * abar_prev.sqrt() / (1 - abar)
coef_xt = (1 - abar_prev) * alphas.sqrt() / (1 - abar)


def time_embedding(t, dim=8):
    freqs = torch.exp(-math.log(1000.0) * torch.arange(dim // 2) / (dim // 2))
    angles = t[:, None].float() * freqs[None]
    return torch.cat([angles.sin(), angles.cos()], dim=1)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(2 + 8, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.eps_head = nn.Linear(hidden, 2)
        self.var_head = nn.Linear(hidden, 2)

    def forward(self, x_t, t):
        h = self.trunk(torch.cat([x_t, time_embedding(t)], dim=1))
        return self.eps_head(h), torch.tanh(self.var_head(h))


def normal_kl(mean1, logvar1, mean2, logvar2):
    return 0.5 * (-1.0 + logvar2 - logvar1 + torch.exp(logvar1 - logvar2)
                  + (mean1 - mean2) ** 2 * torch.exp(-logvar2))


def two_moons(n):
    a = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, a.cos(), 1 - a.cos())
    y = torch.where(upper, a.sin(), 0.5 - a.sin())
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


model = Denoiser()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(8):
    x0 = two_moons(BATCH)
    t = torch.randint(1, T, (BATCH,))
    noise = torch.randn_like(x0)
    a = abar[t][:, None]
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    eps_pred, v = model(x_t, t)
    loss_simple = F.mse_loss(eps_pred, noise)

    true_mean = coef_x0[t][:, None] * x0 + coef_xt[t][:, None] * x_t
    true_logvar = post_var[t].log()[:, None].expand_as(x0)
    x0_pred = (x_t - (1 - a).sqrt() * eps_pred) / a.sqrt()
    model_mean = coef_x0[t][:, None] * x0_pred + coef_xt[t][:, None] * x_t
    frac = (v + 1) / 2
    model_logvar = frac * betas[t].log()[:, None] + (1 - frac) * post_var[t].log()[:, None]
    kl = normal_kl(true_mean, true_logvar, model_mean.detach(), model_logvar)
    loss_vlb = kl.mean() / math.log(2.0)

    loss = loss_simple + LAMBDA_VLB * loss_vlb
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} mse {loss_simple.item():.4f} vlb {loss_vlb.item():.4f}")
