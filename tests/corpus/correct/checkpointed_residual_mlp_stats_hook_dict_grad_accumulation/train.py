"""Residual MLP regressor trained with activation checkpointing (non-reentrant) on every
block and gradient accumulation over micro-batches. A forward-hook object keeps the latest
activation scale of each block for the log line."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

DIM, DEPTH, ACCUM = 16, 4, 2


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(DIM)
        self.fc1 = nn.Linear(DIM, 4 * DIM)
        self.fc2 = nn.Linear(4 * DIM, DIM)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(self.norm(x))))


class ResidualMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(8, DIM)
        self.blocks = nn.ModuleList([Block() for _ in range(DEPTH)])
        self.head = nn.Linear(DIM, 1)

    def forward(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = h + checkpoint(block, h, use_reentrant=False)
        return self.head(h)


class ActivationScale:
    """Latest RMS of each block's output; checkpoint recomputation simply overwrites it."""

    def __init__(self, blocks):
        self.scale = {}
        self.handles = [b.register_forward_hook(self._hook(f"block{i}"))
                        for i, b in enumerate(blocks)]

    def _hook(self, name):
        def record(module, inputs, output):
            self.scale[name] = output.detach().pow(2).mean().sqrt().item()
        return record


def main():
    torch.manual_seed(0)
    model = ResidualMLP()
    stats = ActivationScale(model.blocks)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    w = torch.randn(8, 1)
    for step in range(5):
        optimizer.zero_grad()
        running = 0.0
        for _ in range(ACCUM):
            x = torch.randn(32, 8)
            y = torch.sin(x @ w)
            loss = F.mse_loss(model(x), y) / ACCUM
            loss.backward()
            running += loss.item()
        optimizer.step()
        scales = " ".join(f"{k}={v:.3f}" for k, v in sorted(stats.scale.items()))
        print(f"step {step} loss {running:.4f} {scales}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"parameter checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
