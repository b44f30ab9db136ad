"""DDPM noise-prediction training on 1-D signals (smoothed random walks) with a small
Trainer that calls callbacks around each step, Lightning-style."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LossPrinter, PredictionCollapseMonitor

torch.manual_seed(0)
T, LENGTH, BATCH = 100, 24, 32


def make_signals(n):
    steps = torch.randn(n, LENGTH).cumsum(dim=1)
    return F.avg_pool1d(steps.unsqueeze(1), 5, stride=1, padding=2).squeeze(1) / 3.0


class Denoiser(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_mlp = nn.Sequential(nn.Linear(1, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.conv_in = nn.Conv1d(1, 16, 5, padding=2)
        self.fc = nn.Linear(16 * LENGTH, hidden)
        self.out = nn.Linear(hidden, LENGTH)

    def forward(self, x, t):
        h = F.silu(self.conv_in(x.unsqueeze(1))).flatten(1)
        h = F.silu(self.fc(h) + self.t_mlp(t.float().unsqueeze(1) / T))
        return self.out(h)


class DiffusionTrainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
        betas = torch.linspace(1e-4, 0.02, T)
        self.alpha_bar = torch.cumprod(1 - betas, dim=0)

    def training_step(self, x0):
        t = torch.randint(0, T, (x0.shape[0],))
        noise = torch.randn_like(x0)
        ab = self.alpha_bar[t].unsqueeze(1)
        eps_hat = self.model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t)
        return F.mse_loss(eps_hat, noise)

    def fit(self, steps):
        for cb in self.callbacks:
            cb.on_train_start(self)
        for step in range(steps):
            loss = self.training_step(make_signals(BATCH))
            self.optimizer.zero_grad()
            for cb in self.callbacks:
                cb.on_after_backward(self, loss)
            loss.backward()
            self.optimizer.step()
            for cb in self.callbacks:
                cb.on_step_end(self, step, loss.item())


monitor = PredictionCollapseMonitor()
trainer = DiffusionTrainer(Denoiser(), [LossPrinter(), monitor])
trainer.fit(steps=6)
print("prediction std per step", [round(s, 3) for s in monitor.stds])
