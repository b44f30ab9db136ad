"""Wind-farm power forecaster: one long SCADA stream cut into windows.

The GRU hidden state is handed from window to window (and epoch to epoch)
so the model can remember the wind regime it has seen so far.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PowerGRU(nn.Module):
    def __init__(self, n_in=3, hidden=12):
        super().__init__()
        self.gru = nn.GRU(n_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, h):
        out, h = self.gru(x, h)
        return self.head(out), h


def make_stream(steps=96, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(steps, dtype=torch.float32)
    wind = 7 + 3 * torch.sin(t / 9) + 0.4 * torch.randn(steps, generator=g)
    direction = torch.cos(t / 23)
    temp = 0.1 * torch.randn(steps, generator=g)
    feats = torch.stack([wind / 10, direction, temp], dim=-1)
    power = torch.tanh((wind - 5) / 4).unsqueeze(-1)
    return feats.unsqueeze(0), power.unsqueeze(0)


def windows(feats, power, size=16):
    for start in range(0, feats.shape[1] - size + 1, size):
        yield feats[:, start:start + size], power[:, start:start + size]


def train_epoch(model, optimizer, feats, power, h):
    total = 0.0
    for x, y in windows(feats, power):
        optimizer.zero_grad()
        pred, h = model(x, h)
        loss = F.mse_loss(pred, y)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total, h


def main():
    torch.manual_seed(0)
    model = PowerGRU()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    feats, power = make_stream()
    h = torch.zeros(1, 1, 12)
    for epoch in range(2):
        total, h = train_epoch(model, optimizer, feats, power, h)
        print(f"epoch {epoch} loss {total:.4f}")


if __name__ == "__main__":
    main()
