"""Wind-power nowcasting with an LSTM: epoch losses are tracked as Python floats, the
learning rate follows ReduceLROnPlateau on the validation loss, and the best weights are
kept for the final evaluation."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, FEATURES = 12, 3


class Nowcaster(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.lstm = nn.LSTM(FEATURES, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        h, _ = self.lstm(x)
        return self.out(h[:, -1]).squeeze(-1)


def make_data(n, generator):
    t = torch.arange(n + LOOKBACK, dtype=torch.float32)
    wind = 1 + 0.5 * torch.sin(t / 5) + 0.1 * torch.randn(len(t), generator=generator)
    feats = torch.stack([wind, torch.sin(2 * math.pi * t / 24), torch.cos(2 * math.pi * t / 24)], -1)
    power = wind.clamp(min=0) ** 3 / 4
    x = torch.stack([feats[i:i + LOOKBACK] for i in range(n)])
    return x, power[LOOKBACK:LOOKBACK + n]


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    x, y = make_data(96, gen)
    x_tr, y_tr, x_va, y_va = x[:72], y[:72], x[72:], y[72:]
    model = Nowcaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=0)
    best_val, best_state, history = float("inf"), None, []

    for epoch in range(3):
        model.train()
        running, seen = 0.0, 0
        for start in range(0, 72, 24):
            xb, yb = x_tr[start:start + 24], y_tr[start:start + 24]
            loss = F.mse_loss(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item() * len(xb)
            seen += len(xb)
        model.eval()
        with torch.no_grad():
            val = F.mse_loss(model(x_va), y_va).item()
        scheduler.step(val)
        history.append((running / seen, val))
        if val < best_val:
            best_val, best_state = val, copy.deepcopy(model.state_dict())
        print(f"epoch {epoch} train {running / seen:.4f} val {val:.4f} "
              f"lr {optimizer.param_groups[0]['lr']:.4g}")

    model.load_state_dict(best_state)
    print(f"best val {best_val:.4f} epochs logged {len(history)}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
