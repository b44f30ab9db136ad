"""Hourly electricity-load forecaster. An LSTM reads consecutive windows of one long series
(stateful, so that it keeps the context of the previous days) and a learned daily profile,
one value per hour of the day, is added to its prediction."""
import torch
import torch.nn as nn
import torch.nn.functional as F

WINDOW, HIDDEN, HOUR_DIM = 24, 16, 4


class LoadForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(input_size=2, hidden_size=HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, 1)
        self.hour_emb = nn.Embedding(24, HOUR_DIM)
        self.profile_head = nn.Sequential(nn.Linear(HOUR_DIM, 8), nn.Tanh(), nn.Linear(8, 1))

    def daily_profile(self):
        """The additive hour-of-day effect, shape (24,)."""
        return self.profile_head(self.hour_emb.weight).squeeze(-1)

    def forward(self, x, hidden=None):
        out, hidden = self.lstm(x, hidden)
        return self.head(out).squeeze(-1), hidden


def make_series(days, n_meters=3):
    t = torch.arange(days * 24, dtype=torch.float32)
    daily = torch.sin(2 * torch.pi * t / 24) + 0.5 * torch.sin(4 * torch.pi * t / 24)
    trend = 0.002 * t
    load = daily + trend + 0.1 * torch.randn(n_meters, t.numel())
    temp = torch.cos(2 * torch.pi * (t - 3) / 24).expand(n_meters, -1)
    return load, temp, (t % 24).long()


def main(n_windows=5):
    torch.manual_seed(0)
    load, temp, hours = make_series(days=n_windows + 1)
    model = LoadForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    hidden = None
    losses = []
    for w in range(n_windows):
        sl = slice(w * WINDOW, (w + 1) * WINDOW)
        nxt = slice(w * WINDOW + 1, (w + 1) * WINDOW + 1)
        x = torch.stack([load[:, sl], temp[:, sl]], dim=-1)
        if hidden is not None:
            hidden = tuple(h.detach() for h in hidden)
        base, hidden = model(x, hidden)
        profile = model.daily_profile()
        pred = base + profile[hours[nxt]]
        loss = F.mse_loss(pred, load[:, nxt])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        print(f"window {w} mse {loss.item():.4f}")
    return losses


if __name__ == "__main__":
    main()
