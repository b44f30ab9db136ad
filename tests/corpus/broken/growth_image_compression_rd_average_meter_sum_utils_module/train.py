"""Learned image compression (tiny hyperprior-free autoencoder) trained on
rate-distortion loss: distortion + lambda * estimated bits per pixel."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from utils import AverageMeter


class TinyCodec(nn.Module):
    def __init__(self, latent=8):
        super().__init__()
        self.analysis = nn.Sequential(
            nn.Conv2d(3, 16, 4, stride=2, padding=1), nn.GELU(),
            nn.Conv2d(16, latent, 4, stride=2, padding=1),
        )
        self.synthesis = nn.Sequential(
            nn.ConvTranspose2d(latent, 16, 4, stride=2, padding=1), nn.GELU(),
            nn.ConvTranspose2d(16, 3, 4, stride=2, padding=1),
        )
        self.log_scale = nn.Parameter(torch.zeros(latent))

    def forward(self, x):
        y = self.analysis(x)
        y_hat = y + (torch.rand_like(y) - 0.5)
        scale = self.log_scale.exp()[None, :, None, None]
        nll = 0.5 * (y_hat / scale) ** 2 + torch.log(scale) + 0.919
        bpp = nll.sum(dim=(1, 2, 3)).mean() / (x.shape[2] * x.shape[3]) / 0.693
        return torch.sigmoid(self.synthesis(y_hat)), bpp


def train_one_epoch(model, optimizer, lmbda, steps, batch):
    meters = [AverageMeter("loss"), AverageMeter("mse"), AverageMeter("bpp")]
    for _ in range(steps):
        x = torch.rand(batch, 3, 16, 16)
        x_hat, bpp = model(x)
        mse = F.mse_loss(x_hat, x)
        loss = lmbda * 255 ** 2 * mse + bpp
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for meter, value in zip(meters, (loss, mse, bpp)):
            meter.update(value, x.shape[0])
    return meters


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lmbda", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--batch", type=int, default=4)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = TinyCodec()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        meters = train_one_epoch(model, optimizer, args.lmbda, args.steps, args.batch)
        print(f"epoch {epoch} " + " | ".join(str(m) for m in meters))


if __name__ == "__main__":
    main()
