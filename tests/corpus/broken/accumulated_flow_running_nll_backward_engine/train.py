"""Fits FlowModel to a skewed 2-d point cloud."""
import torch

from engine import train_epoch
from flows import FlowModel


def skewed_cloud(n):
    z = torch.randn(n, 2)
    return torch.stack([z[:, 0], 0.5 * z[:, 1] + 0.3 * z[:, 0] ** 2], -1)


def main(epochs=2, n_batches=3, batch_size=32):
    torch.manual_seed(0)
    flow = FlowModel()
    optimizer = torch.optim.Adam(flow.parameters(), lr=1e-2)
    batches = [skewed_cloud(batch_size) for _ in range(n_batches)]
    for epoch in range(epochs):
        mean_nll = train_epoch(flow, batches, optimizer)
        print(f"epoch {epoch}: mean nll {float(mean_nll):.4f}")
    return flow


if __name__ == "__main__":
    main()
