import torch
import torch.nn as nn

from horizon import lead_time_weights, weighted_horizon_mae

torch.manual_seed(1)

LOOKBACK, HORIZON = 12, 4


class Seq2One(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, HORIZON)

    def forward(self, x):
        _, h = self.gru(x.unsqueeze(-1))
        return self.head(h[-1])


def windows(series, n):
    starts = torch.randint(0, series.numel() - LOOKBACK - HORIZON, (n,))
    x = torch.stack([series[s:s + LOOKBACK] for s in starts.tolist()])
    y = torch.stack([series[s + LOOKBACK:s + LOOKBACK + HORIZON] for s in starts.tolist()])
    return x, y


def train(model, series, epochs=2, batches=3):
    weights = lead_time_weights(HORIZON)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for b in range(batches):
            x, y = windows(series, 16)
            pred = model(x)
            loss, per_step = weighted_horizon_mae(pred, y, weights)
            opt.zero_grad()
            loss.backward()
            opt.step()
        steps = " ".join(f"{v:.3f}" for v in per_step.tolist())
        print(f"epoch {epoch} loss {loss.item():.4f} per-lead [{steps}]")


if __name__ == "__main__":
    t = torch.arange(200, dtype=torch.float32)
    load = torch.sin(t / 6.0) + 0.1 * torch.randn(200)
    train(Seq2One(), load)
