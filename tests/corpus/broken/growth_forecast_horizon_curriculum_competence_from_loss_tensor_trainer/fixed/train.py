"""Multi-step load forecaster trained with a horizon curriculum: the model is first trained
on the next few steps only, and the share of the 12-step horizon it is trained on (its
"competence") grows faster while the loss is low."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, BATCH = 24, 12, 32


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRU(1, 32, batch_first=True)
        self.head = nn.Sequential(nn.Linear(32, 32), nn.GELU(), nn.Linear(32, HORIZON))

    def forward(self, history):
        _, h = self.encoder(history.unsqueeze(-1))
        return self.head(h[-1])


def load_curves(n, gen):
    """Daily cycle (period 24) plus a weekly-ish modulation and noise, normalised."""
    t0 = torch.randint(0, 24 * 7, (n, 1), generator=gen).float()
    t = t0 + torch.arange(LOOKBACK + HORIZON).float()
    daily = torch.sin(2 * math.pi * t / 24)
    slow = 0.5 * torch.sin(2 * math.pi * t / 84)
    series = daily + slow + 0.1 * torch.randn(n, LOOKBACK + HORIZON, generator=gen)
    return series[:, :LOOKBACK], series[:, LOOKBACK:]


class CurriculumTrainer:
    def __init__(self, model, lr=3e-3, start=0.25, pace=0.2, target_loss=0.3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.competence = start
        self.pace, self.target_loss = pace, target_loss

    def horizon(self):
        return max(1, int(self.competence * HORIZON + 0.5))

    def train_step(self, history, future):
        h = self.horizon()
        pred = self.model(history)[:, :h]
        loss = F.mse_loss(pred, future[:, :h])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        # low loss -> move on to longer horizons sooner
        gain = self.pace * self.target_loss / (loss.item() + self.target_loss)
        self.competence = min(1.0, self.competence + gain)
        return loss.item(), h

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for i, (history, future) in enumerate(batches):
                loss, h = self.train_step(history, future)
                print(f"epoch {epoch} batch {i} horizon {h:2d} loss {loss:.4f} "
                      f"competence {self.competence:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    batches = [load_curves(BATCH, gen) for _ in range(4)]
    CurriculumTrainer(Forecaster()).fit(batches, epochs=2)
