"""1-D conv regressor on noisy sine windows, trained by a train() function over a
DataLoader. The loss is rebuilt from its float value with requires_grad=True."""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

WINDOW = 16


def make_data(n):
    phase = torch.rand(n, 1) * 2 * math.pi
    t = torch.linspace(0, 2 * math.pi, WINDOW + 1)
    wave = torch.sin(t + phase) + 0.05 * torch.randn(n, WINDOW + 1)
    return wave[:, None, :WINDOW], wave[:, WINDOW:]


def train(model, loader, loss_fn, optimizer, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            out = model(x)
            loss = loss_fn(out, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = make_data(48)
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=False)
    model = nn.Sequential(nn.Conv1d(1, 8, 5), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 12, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train(model, loader, nn.MSELoss(), optimizer, epochs=2)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
