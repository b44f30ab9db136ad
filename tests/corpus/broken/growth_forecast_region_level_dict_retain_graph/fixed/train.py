"""Electricity-demand forecaster for several grid regions, trained online on a stream of
24-hour windows. Each region keeps a smoothed latent "level" that is carried from one
window to the next in a dict keyed by region name; a learnable per-region gate decides
how much of the new window enters the level. retain_graph=True was added when the
second window raised "Trying to backward through the graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
REGIONS = ["north", "south", "east", "west"]
WINDOW, HORIZON, HID, N_WINDOWS = 24, 6, 16, 10


class RegionalLevelForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(WINDOW, HID)
        self.gate_logit = nn.Parameter(torch.zeros(len(REGIONS)))
        self.head = nn.Linear(HID, HORIZON)

    def update_level(self, region_idx, level, window):
        gate = torch.sigmoid(self.gate_logit[region_idx])
        return gate * level + (1 - gate) * torch.tanh(self.encoder(window))

    def forecast(self, level):
        return self.head(level)


def demand_stream():
    hours = torch.arange(WINDOW * (N_WINDOWS + 1), dtype=torch.float32)
    daily = torch.sin(2 * torch.pi * hours / 24)
    series = {}
    for i, name in enumerate(REGIONS):
        scale = 1.0 + 0.3 * i
        series[name] = scale * daily + 0.1 * torch.randn_like(hours)
    return series


series = demand_stream()
model = RegionalLevelForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
levels = {name: torch.zeros(1, HID) for name in REGIONS}

for w in range(N_WINDOWS):
    start = w * WINDOW
    loss = 0.0
    for idx, region in enumerate(REGIONS):
        window = series[region][start:start + WINDOW].unsqueeze(0)
        target = series[region][start + WINDOW:start + WINDOW + HORIZON].unsqueeze(0)
        levels[region] = model.update_level(idx, levels[region].detach(), window)
        loss = loss + F.mse_loss(model.forecast(levels[region]), target)
    loss = loss / len(REGIONS)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    gates = torch.sigmoid(model.gate_logit).tolist()
    print(f"window {w} mse {loss.item():.4f} gates " + " ".join(f"{g:.3f}" for g in gates))
