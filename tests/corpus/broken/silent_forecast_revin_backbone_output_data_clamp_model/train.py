"""Multi-series electricity-load forecasting (hourly, several feeders) with a RevIN-wrapped
MLP: 24 hours of history in, the next 6 hours out."""
import torch
import torch.nn.functional as F

from model import RevINForecaster

N_SERIES, LOOKBACK, HORIZON = 4, 24, 6


def feeder_loads(n_windows=96):
    t = torch.arange(n_windows + LOOKBACK + HORIZON, dtype=torch.float32)
    level = torch.tensor([50.0, 120.0, 80.0, 200.0])
    daily = torch.sin(2 * torch.pi * t / 24)[:, None] * level * 0.3
    series = level + daily + torch.randn(len(t), N_SERIES) * level * 0.05
    x = torch.stack([series[i:i + LOOKBACK] for i in range(n_windows)])
    y = torch.stack([series[i + LOOKBACK:i + LOOKBACK + HORIZON] for i in range(n_windows)])
    return x, y


def fit(model, x, y, epochs=3, batch=32, lr=3e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), batch):
            idx = perm[i:i + batch]
            pred = model(x[idx])
            loss = F.l1_loss(pred, y[idx]) / y[idx].abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} scaled mae {loss.item():.4f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = feeder_loads()
    fit(RevINForecaster(N_SERIES, LOOKBACK, HORIZON), x, y)
