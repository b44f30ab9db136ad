"""Density estimation on a noisy 2-D banana distribution with a RealNVP-style flow
(model.py), trained by maximum likelihood in a train() function."""
import torch

from model import RealNVP2D


def banana(n):
    x1 = torch.randn(n)
    x2 = 0.5 * x1 ** 2 - 1.0 + 0.3 * torch.randn(n)
    return torch.stack([x1, x2], dim=1)


def train(flow, optimizer, epochs, batches_per_epoch, batch_size=128):
    for epoch in range(epochs):
        total = 0.0
        for _ in range(batches_per_epoch):
            loss = flow.nll(banana(batch_size))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} nll {total / batches_per_epoch:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    flow = RealNVP2D(n_layers=4)
    optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)
    train(flow, optimizer, epochs=2, batches_per_epoch=3)
    print(f"checksum {sum(p.sum().item() for p in flow.parameters()):.4f}")
