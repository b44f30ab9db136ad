"""Direct multi-horizon solar-output forecaster: a shared MLP encoder over the lookback window
and one small head per forecast horizon, each horizon with its own loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZONS, HIDDEN = 24, 3, 32


class MultiHorizonForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(LOOKBACK, HIDDEN), nn.Tanh(),
            nn.Linear(HIDDEN, HIDDEN), nn.Tanh(),
        )
        self.heads = nn.ModuleList(nn.Linear(HIDDEN, 1) for _ in range(HORIZONS))

    def forward(self, x):
        z = self.encoder(x)
        return [head(z).squeeze(-1) for head in self.heads]


def solar_windows(n, noise=0.1):
    phase = torch.rand(n, 1) * 6.28
    t = torch.arange(LOOKBACK + HORIZONS, dtype=torch.float32)
    curve = torch.clamp(torch.sin(t / 4.0 + phase), min=0.0) + noise * torch.randn(n, t.numel())
    return curve[:, :LOOKBACK], curve[:, LOOKBACK:]


def train(epochs=3, batches=2, batch=16):
    torch.manual_seed(0)
    model = MultiHorizonForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    horizon_weights = [1.0, 0.8, 0.6]
    data = [solar_windows(batch) for _ in range(batches)]
    for epoch in range(epochs):
        per_h = [0.0] * HORIZONS
        for x, y in data:
            preds = model(x)
            for h in range(HORIZONS):
                loss_h = horizon_weights[h] * F.smooth_l1_loss(preds[h], y[:, h])
                optimizer.zero_grad()
                loss_h.backward(retain_graph=h < HORIZONS - 1)
                optimizer.step()
                per_h[h] += loss_h.item() / batches
        print(f"epoch {epoch} " + " ".join(f"h{h + 1} {v:.4f}" for h, v in enumerate(per_h)))
    return model


if __name__ == "__main__":
    train()
