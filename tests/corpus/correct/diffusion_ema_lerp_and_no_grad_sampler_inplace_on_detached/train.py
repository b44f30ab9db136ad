"""DDPM on a 2-D ring distribution with an EMA copy of the denoiser. Outside the training
graph a lot happens in place: the EMA weights are lerp_'ed towards the live weights, the
sampler updates its state with sub_/div_/add_/clamp_, and the logged noise predictions are
clamped on a detached copy."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

STEPS = 50


def ring(n, gen):
    angle = 2 * math.pi * torch.rand(n, generator=gen)
    radius = 1.0 + 0.05 * torch.randn(n, generator=gen)
    return torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(STEPS, hidden)
        self.inp = nn.Linear(2, hidden)
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x, t):
        return self.mlp(self.inp(x) + self.t_embed(t))


class EMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = copy.deepcopy(model).requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for ema_p, p in zip(self.shadow.parameters(), model.parameters()):
            ema_p.lerp_(p, 1.0 - self.decay)


@torch.no_grad()
def sample(model, n, betas, alphas, alpha_bars, gen):
    x = torch.randn(n, 2, generator=gen)
    for t in reversed(range(STEPS)):
        eps = model(x, torch.full((n,), t, dtype=torch.long))
        x.sub_(betas[t] / (1 - alpha_bars[t]).sqrt() * eps).div_(alphas[t].sqrt())
        if t > 0:
            x.add_(betas[t].sqrt() * torch.randn(n, 2, generator=gen))
        x.clamp_(-3.0, 3.0)
    return x


def main(iters=6, batch=128):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    betas = torch.linspace(1e-4, 0.05, STEPS)
    alphas = 1.0 - betas
    alpha_bars = torch.cumprod(alphas, dim=0)
    model = Denoiser()
    ema = EMA(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for it in range(iters):
        x0 = ring(batch, gen)
        t = torch.randint(0, STEPS, (batch,), generator=gen)
        noise = torch.randn(batch, 2, generator=gen)
        a_bar = alpha_bars[t].unsqueeze(1)
        x_t = a_bar.sqrt() * x0 + (1 - a_bar).sqrt() * noise
        eps_hat = model(x_t, t)
        loss = F.mse_loss(eps_hat, noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.update(model)

        logged = eps_hat.detach().clone()
        logged.clamp_(-3.0, 3.0)
        line = f"iter {it} loss {loss.item():.4f} |eps_hat| {logged.abs().mean().item():.4f}"
        if it % 2 == 1:
            samples = sample(ema.shadow, 64, betas, alphas, alpha_bars, gen)
            line += f" ema sample radius {samples.norm(dim=1).mean().item():.4f}"
        print(line)
    checksum = sum(p.double().sum().item() for p in ema.shadow.parameters())
    print(f"ema checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
