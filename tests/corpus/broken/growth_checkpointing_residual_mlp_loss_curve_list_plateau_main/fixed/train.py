"""Deep residual MLP regressor trained with activation checkpointing (each block is
recomputed in backward). main() keeps the loss curve to halve the learning rate on a
plateau and prints the curve at the end."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

DEPTH, WIDTH, STEPS = 6, 64, 12


class ResidualBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, 2 * width)
        self.fc2 = nn.Linear(2 * width, width)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class CheckpointedMLP(nn.Module):
    def __init__(self, n_in=10, width=WIDTH, depth=DEPTH):
        super().__init__()
        self.embed = nn.Linear(n_in, width)
        self.blocks = nn.ModuleList(ResidualBlock(width) for _ in range(depth))
        self.out = nn.Linear(width, 1)

    def forward(self, x):
        h = self.embed(x)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False)
        return self.out(h).squeeze(-1)


def target_fn(x):
    return torch.sin(x[:, 0] * 2) + x[:, 1] * x[:, 2] - 0.5 * x[:, 3] ** 2


def main():
    torch.manual_seed(0)
    model = CheckpointedMLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_curve = []
    for step in range(STEPS):
        x = torch.randn(128, 10)
        loss = F.mse_loss(model(x), target_fn(x))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_curve.append(loss.item())
        if len(loss_curve) > 4 and loss_curve[-1] > min(loss_curve[-4:-1]):
            for group in optimizer.param_groups:
                group["lr"] *= 0.5
    print("loss curve", " ".join(f"{float(v):.3f}" for v in loss_curve))
    print("final lr", optimizer.param_groups[0]["lr"])
    return loss_curve


if __name__ == "__main__":
    main()
