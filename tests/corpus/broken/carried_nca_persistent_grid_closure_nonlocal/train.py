"""Neural cellular automaton trained to grow, and then keep, a small target pattern.

"Persistent" training: instead of always starting from the seed, each training step resumes
from the grid the automaton produced in the previous step, so that the rule also learns to
keep the pattern stable over long horizons. The grid lives in the closure of the step
function returned by make_persistent_step().
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

CHANNELS, SIZE, BATCH, STEPS_PER_ITER = 8, 10, 2, 4

SOBEL_X = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8.0
IDENTITY = torch.tensor([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]])


class UpdateRule(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        kernels = torch.stack([IDENTITY, SOBEL_X, SOBEL_X.t()])          # (3, 3, 3)
        self.register_buffer("kernels", kernels.repeat(CHANNELS, 1, 1)[:, None])
        self.fc1 = nn.Conv2d(3 * CHANNELS, hidden, 1)
        self.fc2 = nn.Conv2d(hidden, CHANNELS, 1)
        nn.init.normal_(self.fc2.weight, std=0.01)

    def forward(self, grid, fire_rate=0.5):
        perceived = F.conv2d(grid, self.kernels, padding=1, groups=CHANNELS)
        delta = self.fc2(F.relu(self.fc1(perceived)))
        fire = (torch.rand(grid.size(0), 1, SIZE, SIZE) < fire_rate).float()
        grid = grid + delta * fire
        alive = F.max_pool2d(grid[:, 3:4], 3, stride=1, padding=1) > 0.1
        return grid * alive.float()


def seed_grid():
    grid = torch.zeros(BATCH, CHANNELS, SIZE, SIZE)
    grid[:, 3:, SIZE // 2, SIZE // 2] = 1.0
    return grid


def target_pattern():
    rgba = torch.zeros(4, SIZE, SIZE)
    rgba[:, 3:7, 3:7] = torch.tensor([0.9, 0.3, 0.2, 1.0])[:, None, None]
    return rgba


def make_persistent_step(model, optimizer, target):
    grid = seed_grid()

    def step():
        nonlocal grid
        for _ in range(STEPS_PER_ITER):
            grid = model(grid)
        loss = F.mse_loss(grid[:, :4], target.expand(BATCH, -1, -1, -1))
        optimizer.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.grad /= p.grad.norm() + 1e-8
        optimizer.step()
        return loss.item()

    return step


def main():
    torch.manual_seed(0)
    model = UpdateRule()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    step = make_persistent_step(model, optimizer, target_pattern())
    for it in range(5):
        print(f"iter {it} pattern loss {step():.5f}")


if __name__ == "__main__":
    main()
