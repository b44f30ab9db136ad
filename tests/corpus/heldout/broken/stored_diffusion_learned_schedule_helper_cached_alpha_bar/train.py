"""Denoising diffusion on 8-dimensional sensor vectors with a learned noise schedule
(schedules.py). The schedule is trained jointly with the denoiser: the loss weights each
example's noise-prediction error by its signal-to-noise ratio, plus a prior term pushing the
last step towards pure noise."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from schedules import LearnedSchedule

torch.manual_seed(0)
DIM, T_STEPS, BATCH = 8, 30, 64


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T_STEPS, hidden)
        self.net_in = nn.Linear(DIM, hidden)
        self.net_out = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                     nn.Linear(hidden, DIM))

    def forward(self, x_t, t):
        return self.net_out(self.net_in(x_t) + self.t_embed(t))


def sensor_batch(n):
    latent = torch.randn(n, 2)
    mixing = torch.linspace(-1, 1, 2 * DIM).view(2, DIM)
    return torch.tanh(latent @ mixing) + 0.05 * torch.randn(n, DIM)


denoiser = Denoiser()
schedule = LearnedSchedule(T_STEPS)
optimizer = torch.optim.Adam([*denoiser.parameters(), *schedule.parameters()], lr=2e-3)

for step in range(6):
    x0 = sensor_batch(BATCH)
    t = torch.randint(0, T_STEPS, (BATCH,))
    noise = torch.randn_like(x0)
    x_t, ab = schedule.q_sample(x0, t, noise)
    snr_weight = (ab / (1 - ab)).clamp(max=5.0).squeeze(-1)
    err = (denoiser(x_t, t) - noise).pow(2).mean(dim=1)
    prior = schedule.alpha_bar()[-1]
    loss = (snr_weight * err).mean() / snr_weight.mean() + prior
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}  loss {loss.item():.4f}  alpha_bar[T-1] {prior.item():.4f}")
