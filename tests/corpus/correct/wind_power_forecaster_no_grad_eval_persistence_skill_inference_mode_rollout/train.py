"""Wind-farm power forecaster (next 4 hours from the last 12): trains on a skill score
against the persistence baseline, evaluates under @torch.no_grad() after every epoch and
produces an autoregressive day-ahead rollout under torch.inference_mode() at the end."""
import torch
import torch.nn as nn

torch.manual_seed(0)
PAST, AHEAD = 12, 4


def synthetic_power(hours):
    t = torch.arange(hours, dtype=torch.float32)
    wind = 6 + 2 * torch.sin(2 * torch.pi * t / 24) + torch.cumsum(0.3 * torch.randn(hours), 0) * 0.2
    power = torch.clamp((wind / 12) ** 3, 0, 1)  # normalised power curve
    return power


def windows(series):
    idx = torch.arange(len(series) - PAST - AHEAD + 1)
    x = torch.stack([series[i:i + PAST] for i in idx])
    y = torch.stack([series[i + PAST:i + PAST + AHEAD] for i in idx])
    return x, y


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(PAST, 32), nn.GELU(), nn.Dropout(0.1),
                                 nn.Linear(32, AHEAD))

    def forward(self, past):
        # predict the change from the last observation
        return past[:, -1:] + self.net(past)


@torch.no_grad()
def persistence(past):
    """Baseline: the last observed value repeated."""
    return past[:, -1:].expand(-1, AHEAD)


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    mse = (model(x) - y).pow(2).mean().item()
    skill = 1 - mse / (persistence(x) - y).pow(2).mean().item()
    model.train()
    return mse, skill


def rollout(model, history, steps):
    """Autoregressive forecast, feeding predictions back in."""
    model.eval()
    with torch.inference_mode():
        window = history[-PAST:].clone()
        out = []
        for _ in range(steps // AHEAD):
            pred = model(window[None])[0].clamp(0, 1)
            out.append(pred)
            window = torch.cat([window[AHEAD:], pred])
    model.train()
    return torch.cat(out)


def main():
    series = synthetic_power(24 * 10)
    train_x, train_y = windows(series[:24 * 8])
    val_x, val_y = windows(series[24 * 8:])
    model = Forecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(3):
        for start in range(0, len(train_x), 64):
            x, y = train_x[start:start + 64], train_y[start:start + 64]
            base = (persistence(x) - y).pow(2).mean()  # constant, no graph
            loss = (model(x) - y).pow(2).mean() / (base + 1e-6)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        mse, skill = evaluate(model, val_x, val_y)
        print(f"epoch {epoch} train rel-mse {loss.item():.4f} val mse {mse:.5f} skill {skill:.3f}")
    day = rollout(model, series[:24 * 9], 24)
    print("day-ahead mean power", round(day.mean().item(), 4))
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))


if __name__ == "__main__":
    main()
