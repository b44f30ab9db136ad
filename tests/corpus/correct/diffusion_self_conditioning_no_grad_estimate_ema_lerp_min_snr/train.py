"""Self-conditioned DDPM on 2-D ring data, done as in the Analog Bits recipe: half of the
time a first x0 estimate is made under no_grad within the same step and fed back as the
self-conditioning input. Min-SNR loss weights come from the fixed schedule (clamped in
place, it has no graph) and an EMA copy of the denoiser is updated after each step."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS, BATCH = 50, 64


def rings(n, gen):
    theta = torch.rand(n, generator=gen) * 2 * math.pi
    radius = torch.where(torch.rand(n, generator=gen) < 0.5, 0.5, 1.0)
    pts = torch.stack([radius * theta.cos(), radius * theta.sin()], 1)
    return pts + 0.03 * torch.randn(n, 2, generator=gen)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.t_embed = nn.Embedding(T_STEPS, 16)
        self.net = nn.Sequential(nn.Linear(20, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(),
                                 nn.Linear(64, 2))

    def forward(self, x_t, t, x0_self):
        return self.net(torch.cat([x_t, x0_self, self.t_embed(t)], 1))


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    betas = torch.linspace(1e-4, 0.05, T_STEPS)
    alpha_bar = torch.cumprod(1 - betas, 0)
    snr_table = alpha_bar / (1 - alpha_bar)

    model = Denoiser()
    ema = copy.deepcopy(model).requires_grad_(False)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

    for step in range(8):
        x0 = rings(BATCH, gen)
        t = torch.randint(0, T_STEPS, (BATCH,), generator=gen)
        ab = alpha_bar[t].unsqueeze(1)
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * torch.randn(BATCH, 2, generator=gen)

        self_cond = torch.zeros_like(x0)
        if step % 2 == 1:
            with torch.no_grad():
                self_cond = model(x_t, t, self_cond)
        x0_pred = model(x_t, t, self_cond)

        weight = snr_table[t].clone()
        weight.clamp_(max=5.0)
        loss = (weight * F.mse_loss(x0_pred, x0, reduction="none").mean(1)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        with torch.no_grad():
            for p_ema, p in zip(ema.parameters(), model.parameters()):
                p_ema.lerp_(p, 0.1)
        print(f"step {step} loss {loss.item():.5f} self-cond {step % 2 == 1}")

    print(f"checksum model {sum(p.sum().item() for p in model.parameters()):.6f} "
          f"ema {sum(p.sum().item() for p in ema.parameters()):.6f}")


if __name__ == "__main__":
    main()
