"""Resuming an interrupted run: a tabular house-price regressor is rebuilt, its optimizer
set up, and the weights of the last checkpoint restored with the helper from ckpt.py before
training continues."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ckpt import restore, snapshot

IN_FEATURES = 8


def make_model():
    return nn.Sequential(nn.Linear(IN_FEATURES, 32), nn.ReLU(), nn.Linear(32, 1))


def housing_batch(n=64):
    x = torch.randn(n, IN_FEATURES)
    y = x[:, :3].sum(1, keepdim=True) - 0.5 * x[:, 3:4] ** 2 + 0.1 * torch.randn(n, 1)
    return x, y


def interrupted_run():
    """Stands in for the checkpoint the first run wrote before it was stopped."""
    model = make_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    return snapshot(model, optimizer, step=500)


def main():
    torch.manual_seed(0)
    checkpoint = interrupted_run()
    model = make_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    model = restore(model, checkpoint)
    start = checkpoint["step"]
    for step in range(start, start + 6):
        x, y = housing_batch()
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
