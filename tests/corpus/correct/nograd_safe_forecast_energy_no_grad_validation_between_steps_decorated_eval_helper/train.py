"""Day-ahead energy forecaster with a validation pass after every step.

validate() is decorated with @torch.no_grad() and only returns a float; the
model is switched to eval() for it and back to train() before the next step.
The best weights are kept as detached clones for early stopping.

Modelled on https://github.com/knazeri/edge-connect/issues/9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

LAGS, HORIZON = 24, 6


class MLPForecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LAGS, hidden), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, HORIZON))

    def forward(self, x):
        return self.net(x)


def make_windows(series, n):
    starts = torch.randint(0, series.numel() - LAGS - HORIZON, (n,))
    x = torch.stack([series[s:s + LAGS] for s in starts.tolist()])
    y = torch.stack([series[s + LAGS:s + LAGS + HORIZON] for s in starts.tolist()])
    return x, y


@torch.no_grad()
def validate(model, x, y):
    model.eval()
    err = F.l1_loss(model(x), y).item()
    model.train()
    return err


def main():
    torch.manual_seed(13)
    t = torch.arange(400, dtype=torch.float32)
    series = torch.sin(2 * torch.pi * t / 24) + 0.3 * torch.sin(2 * torch.pi * t / 168)
    series = series + 0.05 * torch.randn_like(series)
    x_val, y_val = make_windows(series[300:], 32)

    model = MLPForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    best_err, best_state = float("inf"), None
    model.train()
    for step in range(8):
        x, y = make_windows(series[:300], 32)
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        val_mae = validate(model, x_val, y_val)
        if val_mae < best_err:
            best_err = val_mae
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        print(f"step {step} train mse {loss.item():.4f} val mae {val_mae:.4f}")

    model.load_state_dict(best_state)
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"best val mae {best_err:.4f} param checksum {checksum:.5f}")


if __name__ == "__main__":
    main()
