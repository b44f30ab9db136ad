"""Demand forecaster with a shared GRU trunk and two heads: a point forecast for the next
HORIZON steps and a 90% upper quantile. To make the forecast robust to small input noise,
the squared input-gradient of the point loss is added as a penalty (double backward)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

WINDOW, HORIZON, HIDDEN, BATCH, PENALTY, Q = 16, 3, 24, 32, 0.1, 0.9


class TwoHeadForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.GRU(1, HIDDEN, batch_first=True)
        self.point_head = nn.Linear(HIDDEN, HORIZON)
        self.quantile_head = nn.Sequential(nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
                                           nn.Linear(HIDDEN, HORIZON))

    def forward(self, x):
        _, h = self.trunk(x.unsqueeze(-1))
        feats = h[-1]
        return self.point_head(feats), self.quantile_head(feats)


def pinball(pred, target, q):
    diff = target - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


def batches(n, seed_shift):
    t = torch.arange(WINDOW + HORIZON, dtype=torch.float32)
    phase = 2 * torch.pi * torch.rand(n, 1)
    series = torch.sin(0.5 * t + phase) + 0.2 * torch.randn(n, WINDOW + HORIZON) + seed_shift
    return series[:, :WINDOW], series[:, WINDOW:]


def train(steps=6):
    torch.manual_seed(0)
    model = TwoHeadForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(steps):
        x, y = batches(BATCH, seed_shift=0.1 * (step % 3))
        x.requires_grad_(True)
        point, upper = model(x)
        point_loss = F.mse_loss(point, y)
        quantile_loss = pinball(upper, y, Q)
        # per-example input gradients (the mean over the batch would shrink them by BATCH)
        (grad_x,) = torch.autograd.grad(point_loss * x.size(0), x, create_graph=True)
        smoothness = grad_x.pow(2).sum(dim=1).mean()
        loss = point_loss + quantile_loss + PENALTY * smoothness
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        coverage = (y <= upper).float().mean().item()
        print(f"step {step} mse {point_loss.item():.4f} pinball {quantile_loss.item():.4f} "
              f"grad-penalty {smoothness.item():.5f} coverage {coverage:.2f}")
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
