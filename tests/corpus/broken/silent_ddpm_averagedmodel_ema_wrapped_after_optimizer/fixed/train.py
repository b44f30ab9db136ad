"""DDPM-style denoiser on 2-D points drawn from a ring. Sampling quality improves with an
EMA of the weights, so the denoiser is wrapped in torch.optim.swa_utils.AveragedModel with
an EMA averaging function when config["ema"] is on."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

T_STEPS, BATCH = 50, 128
config = {"lr": 2e-3, "ema": True, "ema_decay": 0.95, "steps": 6}
betas = torch.linspace(1e-4, 0.05, T_STEPS)
alphas_bar = torch.cumprod(1 - betas, dim=0)


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T_STEPS, hidden)
        self.inp = nn.Linear(2, hidden)
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, x_t, t):
        return self.mlp(self.inp(x_t) + self.t_embed(t))


def ring_points(n):
    angle = 2 * math.pi * torch.rand(n)
    return torch.stack([angle.cos(), angle.sin()], dim=1) + 0.05 * torch.randn(n, 2)


@torch.no_grad()
def eval_loss(net, n=512):
    x0 = ring_points(n)
    t = torch.randint(0, T_STEPS, (n,))
    noise = torch.randn_like(x0)
    a = alphas_bar[t][:, None]
    return F.mse_loss(net(a.sqrt() * x0 + (1 - a).sqrt() * noise, t), noise).item()


def main():
    torch.manual_seed(0)
    model = Denoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"])
    ema_model = None
    if config["ema"]:
        ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(config["ema_decay"]))

    for step in range(config["steps"]):
        x0 = ring_points(BATCH)
        t = torch.randint(0, T_STEPS, (BATCH,))
        noise = torch.randn_like(x0)
        a = alphas_bar[t][:, None]
        x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
        loss = F.mse_loss(model(x_t, t), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if ema_model is not None:
            ema_model.update_parameters(model)
        print(f"step {step} loss {loss.item():.4f}")
    print(f"eval loss {eval_loss(ema_model if ema_model is not None else model):.4f}")


if __name__ == "__main__":
    main()
