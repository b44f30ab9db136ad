"""County-level maize yield from a season of NDVI composites and weekly weather."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from trainer import MiniTrainer

torch.manual_seed(11)
WEEKS, WEATHER = 12, 3


class YieldModule(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.ndvi_conv = nn.Conv1d(1, 8, 3, padding=1)
        self.weather_gru = nn.GRU(WEATHER, hidden, batch_first=True)
        self.head = nn.Sequential(nn.Linear(8 + hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, ndvi, weather):
        veg = F.relu(self.ndvi_conv(ndvi.unsqueeze(1))).amax(dim=-1)
        _, h = self.weather_gru(weather)
        return self.head(torch.cat([veg, h[-1]], dim=1)).squeeze(-1)

    def training_step(self, batch, batch_idx):
        ndvi, weather, yield_t = batch
        return F.smooth_l1_loss(self(ndvi, weather), yield_t)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-3, weight_decay=1e-4)


def county_seasons(n_batches, b=8):
    batches = []
    for _ in range(n_batches):
        ndvi = torch.sigmoid(torch.randn(b, WEEKS).cumsum(1) * 0.3)
        weather = torch.randn(b, WEEKS, WEATHER)
        # yield: peak greenness minus heat stress in mid season
        yield_t = 8 * ndvi.max(1).values - 0.5 * weather[:, 4:8, 0].clamp(min=0).sum(1)
        batches.append((ndvi, weather, yield_t))
    return batches


if __name__ == "__main__":
    MiniTrainer(max_epochs=2).fit(YieldModule(), county_seasons(3))
