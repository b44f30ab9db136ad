"""Statistical downscaling of 2 m temperature: a CNN maps a coarse 8x8 reanalysis tile plus the
fine 32x32 elevation map to a fine-grid field. There is no gridded truth, so the model is
trained against station observations, read off the predicted field at each station's
position (geo.py)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from geo import sample_at_stations

COARSE, FINE, N_STATIONS = 8, 32, 40
LAPSE = -6.5  # K per km


class Downscaler(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(2, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden, 1, 3, padding=1))

    def forward(self, coarse, elevation):
        base = F.interpolate(coarse, size=(FINE, FINE), mode="bilinear", align_corners=False)
        x = torch.cat([base, elevation.expand(len(coarse), -1, -1, -1)], dim=1)
        return base + self.body(x)


def make_world():
    yy, xx = torch.meshgrid(torch.linspace(0, 1, FINE), torch.linspace(0, 1, FINE), indexing="ij")
    elevation = 1.5 * torch.exp(-((xx - 0.6) ** 2 + (yy - 0.4) ** 2) / 0.05)  # km
    rng = np.random.default_rng(0)
    stations = rng.uniform(0, FINE - 1.001, size=(N_STATIONS, 2))
    return elevation[None, None], stations


def weather_batch(elevation, stations, batch_size, gen):
    """Synthetic days: a large-scale gradient plus the lapse-rate effect of the terrain."""
    slope = torch.randn(batch_size, 2, 1, 1, generator=gen)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, FINE), torch.linspace(-1, 1, FINE), indexing="ij")
    truth = 3 * (slope[:, :1] * xx + slope[:, 1:] * yy) + LAPSE * elevation / 3
    coarse = F.avg_pool2d(truth, FINE // COARSE)
    obs = sample_at_stations(truth[:, 0], stations)
    return coarse, obs + 0.1 * torch.randn(obs.shape, generator=gen)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    elevation, stations = make_world()
    model = Downscaler()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(2):
        for _ in range(3):
            coarse, obs = weather_batch(elevation, stations, 8, gen)
            fine = model(coarse, elevation)
            pred_st = sample_at_stations(fine[:, 0], stations)
            loss = F.mse_loss(pred_st, obs)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} station rmse {loss.sqrt().item():.4f} K")


if __name__ == "__main__":
    main()
