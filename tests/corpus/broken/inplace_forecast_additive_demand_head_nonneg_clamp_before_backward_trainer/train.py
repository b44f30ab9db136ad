"""Additive demand forecaster for 12 stores. Each hidden unit is a non-negative demand
component (softplus of lagged sales and calendar features) and the head mixes them with
non-negative weights so components can never cancel each other out. The Trainer keeps
the head projected onto the non-negative orthant."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_STORES, N_LAGS, N_DAYS = 12, 14, 60


class AdditiveDemandNet(nn.Module):
    def __init__(self, n_lags=N_LAGS, n_calendar=2, n_components=16):
        super().__init__()
        self.components = nn.Linear(n_lags + n_calendar, n_components)
        self.head = nn.Linear(n_components, 1)
        with torch.no_grad():
            self.head.weight.uniform_(0.0, 0.2)

    def forward(self, lags, calendar):
        parts = F.softplus(self.components(torch.cat([lags, calendar], dim=-1)))
        return self.head(parts).squeeze(-1)


class Trainer:
    def __init__(self, model, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.history = []

    def _project_head(self):
        with torch.no_grad():
            self.model.head.weight.clamp_(min=0.0)

    def training_step(self, lags, calendar, target):
        pred = self.model(lags, calendar)
        self._project_head()
        loss = F.l1_loss(pred, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, windows, epochs):
        for epoch in range(epochs):
            losses = [self.training_step(*w) for w in windows]
            self.history.append(sum(losses) / len(losses))
            print(f"epoch {epoch} MAE {self.history[-1]:.4f}")
        return self.history


def make_windows(series, batch_days=8):
    days = torch.arange(series.size(1), dtype=torch.float32)
    calendar = torch.stack([torch.sin(2 * torch.pi * days / 7), torch.cos(2 * torch.pi * days / 7)], 1)
    windows = []
    for start in range(N_LAGS, series.size(1) - batch_days, batch_days):
        idx = torch.arange(start, start + batch_days)
        lags = torch.stack([series[:, d - N_LAGS:d] for d in idx.tolist()], 1).reshape(-1, N_LAGS)
        cal = calendar[idx].repeat(N_STORES, 1)
        target = series[:, idx].reshape(-1)
        windows.append((lags / 10.0, cal, target / 10.0))
    return windows


if __name__ == "__main__":
    torch.manual_seed(0)
    t = torch.arange(N_DAYS, dtype=torch.float32)
    base = 20 + 10 * torch.rand(N_STORES, 1)
    sales = base + 4 * torch.sin(2 * torch.pi * t / 7) + torch.randn(N_STORES, N_DAYS)
    trainer = Trainer(AdditiveDemandNet())
    trainer.fit(make_windows(sales)[:4], epochs=2)
    print("head min weight", round(trainer.model.head.weight.min().item(), 4))
