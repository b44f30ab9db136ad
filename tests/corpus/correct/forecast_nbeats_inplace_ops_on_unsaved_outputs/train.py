"""N-BEATS-style forecaster (generic + trend blocks) on synthetic daily demand series.
Several tensors are edited in place: the input windows are standardised in place, each
block's hidden activation uses an in-place ReLU right after its Linear, the trend
coefficients are damped in place before use, and the block forecasts are summed with +=.
None of these tensors has been saved by an earlier op when it is overwritten."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, HIDDEN, DEGREE = 24, 6, 64, 3


def demand_series(n, gen):
    t = torch.arange(LOOKBACK + HORIZON).float()
    level = 10 + 5 * torch.rand(n, 1, generator=gen)
    slope = 0.1 * torch.randn(n, 1, generator=gen)
    weekly = torch.sin(2 * torch.pi * t / 7 + 6.28 * torch.rand(n, 1, generator=gen))
    y = level + slope * t + 2 * weekly + 0.3 * torch.randn(n, t.numel(), generator=gen)
    return y[:, :LOOKBACK], y[:, LOOKBACK:]


class Block(nn.Module):
    def __init__(self, theta_dim, basis_back, basis_fore, damp=1.0):
        super().__init__()
        self.fc1 = nn.Linear(LOOKBACK, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, HIDDEN)
        self.theta = nn.Linear(HIDDEN, 2 * theta_dim)
        self.register_buffer("basis_back", basis_back)
        self.register_buffer("basis_fore", basis_fore)
        self.theta_dim, self.damp = theta_dim, damp

    def forward(self, x):
        h = F.relu(self.fc1(x), inplace=True)
        h = F.relu(self.fc2(h), inplace=True)
        theta = self.theta(h)
        theta[:, 1:self.theta_dim] *= self.damp
        back = theta[:, :self.theta_dim] @ self.basis_back
        fore = theta[:, self.theta_dim:] @ self.basis_fore
        return back, fore


def trend_basis(length, offset):
    t = (torch.arange(length).float() + offset) / (LOOKBACK + HORIZON)
    return torch.stack([t ** p for p in range(DEGREE + 1)])


class NBeats(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([
            Block(DEGREE + 1, trend_basis(LOOKBACK, 0), trend_basis(HORIZON, LOOKBACK), damp=0.5),
            Block(LOOKBACK, torch.eye(LOOKBACK), torch.randn(LOOKBACK, HORIZON) / LOOKBACK),
            Block(LOOKBACK, torch.eye(LOOKBACK), torch.randn(LOOKBACK, HORIZON) / LOOKBACK)])

    def forward(self, x):
        residual = x
        forecast = torch.zeros(x.shape[0], HORIZON)
        for block in self.blocks:
            back, fore = block(residual)
            residual = residual - back
            forecast += fore
        return forecast


def main(epochs=4, batches=2, batch_size=32):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(12)
    model = NBeats()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        running = 0.0
        for _ in range(batches):
            history, target = demand_series(batch_size, gen)
            mean = history.mean(dim=1, keepdim=True)
            std = history.std(dim=1, keepdim=True) + 1e-5
            history.sub_(mean).div_(std)
            target = (target - mean) / std
            loss = F.mse_loss(model(history), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch} mse {running / batches:.5f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
