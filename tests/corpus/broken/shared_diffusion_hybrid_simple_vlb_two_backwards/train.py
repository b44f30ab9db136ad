"""Improved-DDPM style training on a 2-D toy point cloud: the denoiser predicts the noise and
an interpolation coefficient for its variance. L_simple trains the mean, a small L_vlb term
trains the variance (with the mean stopped), as in the hybrid objective."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T, DIM, LAMBDA_VLB = 50, 2, 0.001


def make_schedule(steps):
    betas = torch.linspace(1e-4, 0.05, steps)
    alphas = 1.0 - betas
    alpha_bar = torch.cumprod(alphas, 0)
    alpha_bar_prev = torch.cat([torch.ones(1), alpha_bar[:-1]])
    beta_tilde = betas * (1 - alpha_bar_prev) / (1 - alpha_bar)
    beta_tilde[0] = beta_tilde[1]
    return betas, alphas, alpha_bar, alpha_bar_prev, beta_tilde


def sample_moons(n):
    angle = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(angle), 1 - torch.cos(angle))
    y = torch.where(upper, torch.sin(angle), 0.5 - torch.sin(angle))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T, hidden)
        self.inp = nn.Linear(DIM, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.out = nn.Linear(hidden, 2 * DIM)

    def forward(self, x, t):
        return self.out(self.body(self.inp(x) + self.t_embed(t)))


def gaussian_kl(mean1, logvar1, mean2, logvar2):
    return 0.5 * (-1.0 + logvar2 - logvar1 + torch.exp(logvar1 - logvar2)
                  + (mean1 - mean2) ** 2 * torch.exp(-logvar2))


def train(steps=6, batch=128):
    torch.manual_seed(0)
    betas, alphas, alpha_bar, alpha_bar_prev, beta_tilde = make_schedule(T)
    model = Denoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    for step in range(steps):
        x0 = sample_moons(batch)
        t = torch.randint(1, T, (batch,))
        noise = torch.randn_like(x0)
        ab = alpha_bar[t].unsqueeze(1)
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise

        out = model(xt, t)
        eps_pred, v = out.split(DIM, dim=1)
        loss_simple = F.mse_loss(eps_pred, noise)

        b, a = betas[t].unsqueeze(1), alphas[t].unsqueeze(1)
        bt, abp = beta_tilde[t].unsqueeze(1), alpha_bar_prev[t].unsqueeze(1)
        mu_q = (abp.sqrt() * b / (1 - ab)) * x0 + (a.sqrt() * (1 - abp) / (1 - ab)) * xt
        mu_p = (xt - b / (1 - ab).sqrt() * eps_pred.detach()) / a.sqrt()
        frac = (v + 1) / 2
        logvar_p = frac * b.log() + (1 - frac) * bt.log()
        loss_vlb = gaussian_kl(mu_q, bt.log(), mu_p, logvar_p).mean() * T

        optimizer.zero_grad()
        loss_simple.backward()
        (LAMBDA_VLB * loss_vlb).backward()
        optimizer.step()
        print(f"step {step} simple {loss_simple.item():.4f} vlb {loss_vlb.item():.4f}")
    return model


if __name__ == "__main__":
    train()
