"""Deep residual MLP regressor whose blocks are activation-checkpointed to save memory."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from engine import Engine

DIM, DEPTH, BATCH = 16, 4, 32


class ResidualMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, DIM)
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, 2 * DIM), nn.GELU(), nn.Linear(2 * DIM, DIM))
            for _ in range(DEPTH)])
        self.out = nn.Linear(DIM, 1)

    def forward(self, x):
        h = self.inp(x)
        for block in self.blocks:
            h = h + checkpoint(block, h, use_reentrant=False)
        return self.out(h).squeeze(-1)


def make_data(n):
    x = torch.randn(n, 8)
    return x, (x[:, :4].sum(-1) - x[:, 4:].prod(-1)).tanh()


def main(steps=5):
    torch.manual_seed(0)
    model = ResidualMLP()
    engine = Engine(model, torch.optim.AdamW(model.parameters(), lr=1e-3))
    for step in range(steps):
        x, y = make_data(BATCH)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        value = engine.train_step(loss)
        print(f"step {engine.global_step}: loss {value:.4f} grad-norm {engine.grad_norms[-1]:.3f}")


if __name__ == "__main__":
    main()
