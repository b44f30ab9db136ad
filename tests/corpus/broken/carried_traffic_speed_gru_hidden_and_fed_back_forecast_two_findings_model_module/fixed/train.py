"""Online training of a corridor speed forecaster on consecutive 30-minute
windows of loop-detector data (6 readings of 5 minutes, 4 sensors)."""
import torch
import torch.nn.functional as F

from model import LoopDetectorForecaster

N_SENSORS, STEPS_PER_WINDOW = 4, 6


def corridor_day(n_windows, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n_windows * STEPS_PER_WINDOW + 1).float()
    rush = 25 * torch.exp(-((t - 20) / 6) ** 2)
    offsets = torch.tensor([0.0, 1.0, 2.0, 3.0])
    speed = 100 - rush[:, None] * (1 + 0.1 * offsets[None, :])
    speed = (speed + torch.randn(speed.shape, generator=g)) / 100
    for w in range(n_windows):
        lo = w * STEPS_PER_WINDOW
        yield speed[None, lo:lo + STEPS_PER_WINDOW], speed[None, lo + STEPS_PER_WINDOW]


torch.manual_seed(0)
model = LoopDetectorForecaster(N_SENSORS)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
hidden = None

for w, (window, target) in enumerate(corridor_day(6)):
    forecast, hidden = model(window, hidden)
    hidden = hidden.detach()
    loss = F.mse_loss(forecast, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"window {w} mse {loss.item():.5f}")
