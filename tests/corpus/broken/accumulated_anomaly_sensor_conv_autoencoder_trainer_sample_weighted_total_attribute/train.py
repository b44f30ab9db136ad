"""Unsupervised anomaly detection on multichannel sensor windows: a 1-D conv autoencoder is
trained on normal windows, then windows whose reconstruction error exceeds a threshold
picked on the training set are flagged."""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    channels: int = 3
    window: int = 32
    n_train: int = 56
    batch_size: int = 24
    epochs: int = 2
    lr: float = 3e-3


class ConvAE(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(channels, 8, 5, stride=2, padding=2), nn.GELU(),
            nn.Conv1d(8, 4, 5, stride=2, padding=2), nn.GELU())
        self.decoder = nn.Sequential(
            nn.ConvTranspose1d(4, 8, 4, stride=2, padding=1), nn.GELU(),
            nn.ConvTranspose1d(8, channels, 4, stride=2, padding=1))

    def forward(self, x):
        return self.decoder(self.encoder(x))


class AETrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = ConvAE(cfg.channels)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)

    def on_epoch_start(self):
        self.total_loss = 0.0
        self.n_seen = 0

    def training_step(self, windows):
        recon = self.model(windows)
        loss = (recon - windows).pow(2).mean()
        # the last batch is smaller: weight by window count so the epoch mean is exact
        self.total_loss = self.total_loss + loss * len(windows)
        self.n_seen += len(windows)
        epoch_mean = self.total_loss / self.n_seen
        self.optimizer.zero_grad()
        epoch_mean.backward()
        self.optimizer.step()
        return epoch_mean

    def fit(self, data):
        for epoch in range(self.cfg.epochs):
            self.model.train()
            self.on_epoch_start()
            for start in range(0, len(data), self.cfg.batch_size):
                epoch_mean = self.training_step(data[start:start + self.cfg.batch_size])
            print(f"epoch {epoch} mean reconstruction error {float(epoch_mean):.4f}")

    @torch.no_grad()
    def scores(self, windows):
        self.model.eval()
        return (self.model(windows) - windows).pow(2).mean(dim=(1, 2))


def sensor_windows(n, cfg, gen, anomalous=False):
    t = torch.linspace(0, 4 * torch.pi, cfg.window)
    phase = torch.rand(n, cfg.channels, 1, generator=gen) * 2 * torch.pi
    x = torch.sin(t + phase) + 0.1 * torch.randn(n, cfg.channels, cfg.window, generator=gen)
    if anomalous:
        x[:, 0, cfg.window // 2:] += 2.0
    return x


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = Config()
    gen = torch.Generator().manual_seed(0)
    trainer = AETrainer(cfg)
    trainer.fit(sensor_windows(cfg.n_train, cfg, gen))
    threshold = trainer.scores(sensor_windows(cfg.n_train, cfg, gen)).quantile(0.95)
    test = torch.cat([sensor_windows(4, cfg, gen), sensor_windows(4, cfg, gen, anomalous=True)])
    print("flagged", (trainer.scores(test) > threshold).int().tolist())
