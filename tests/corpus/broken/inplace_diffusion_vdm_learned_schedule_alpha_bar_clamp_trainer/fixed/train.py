"""Continuous-time diffusion with a learned noise schedule (VDM-style) on 8-dim
synthetic "spectral envelope" vectors.

gamma(t) is a monotone function of t with learnable parameters; the denoiser predicts
epsilon and the loss is min-SNR weighted. The schedule and the denoiser are trained by
one optimizer inside a small Trainer class.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

DIM, BATCH, MIN_SNR_GAMMA = 8, 64, 5.0


class LearnedSchedule(nn.Module):
    """gamma(t) = gamma_min + softplus(a) * t + softplus(b) * t**2  (monotone in t)."""

    def __init__(self, gamma_min=-6.0):
        super().__init__()
        self.gamma_min = gamma_min
        self.a = nn.Parameter(torch.tensor(8.0))
        self.b = nn.Parameter(torch.tensor(2.0))

    def forward(self, t):
        return self.gamma_min + F.softplus(self.a) * t + F.softplus(self.b) * t ** 2


class EpsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM + 1, 64), nn.SiLU(), nn.Linear(64, 64),
                                 nn.SiLU(), nn.Linear(64, DIM))

    def forward(self, x_t, gamma_t):
        return self.net(torch.cat([x_t, gamma_t / 10.0], dim=1))


class DiffusionTrainer:
    def __init__(self):
        self.schedule = LearnedSchedule()
        self.model = EpsNet()
        self.optimizer = torch.optim.Adam(
            [*self.model.parameters(), *self.schedule.parameters()], lr=1e-3)
        self.step = 0

    def sample_data(self):
        base = torch.linspace(0, 1, DIM)
        tilt = torch.randn(BATCH, 1)
        return torch.exp(-tilt * base) + 0.05 * torch.randn(BATCH, DIM)

    def train_step(self):
        x0 = self.sample_data()
        t = torch.rand(BATCH, 1)
        gamma_t = self.schedule(t)
        alpha_bar = torch.sigmoid(-gamma_t).clamp(min=1e-5, max=1 - 1e-5)
        eps = torch.randn_like(x0)
        x_t = alpha_bar.sqrt() * x0 + (1 - alpha_bar).sqrt() * eps

        snr = torch.exp(-gamma_t)
        loss_weight = snr.clamp(max=MIN_SNR_GAMMA) / snr
        per_sample = F.mse_loss(self.model(x_t, gamma_t), eps, reduction="none").mean(1)
        loss = (loss_weight.squeeze(1) * per_sample).mean()

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return loss.item()

    def fit(self, steps=6):
        for _ in range(steps):
            loss = self.train_step()
            g0, g1 = self.schedule(torch.tensor([0.0, 1.0])).tolist()
            print(f"step {self.step} loss {loss:.4f} gamma(0) {g0:.3f} gamma(1) {g1:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    DiffusionTrainer().fit()
