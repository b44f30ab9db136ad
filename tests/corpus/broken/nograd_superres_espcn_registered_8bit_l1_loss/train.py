"""x2 single-image super-resolution with ESPCN (sub-pixel convolution) on synthetic
texture patches; the loss is chosen by name from the registry in losses.py."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import LOSSES, psnr_8bit

CONFIG = {"scale": 2, "loss": "l1_8bit", "lr": 1e-3, "epochs": 2, "steps_per_epoch": 3}


class ESPCN(nn.Module):
    def __init__(self, scale, channels=1, features=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, features, 5, padding=2), nn.Tanh(),
            nn.Conv2d(features, features // 2, 3, padding=1), nn.Tanh(),
            nn.Conv2d(features // 2, channels * scale ** 2, 3, padding=1))
        self.shuffle = nn.PixelShuffle(scale)

    def forward(self, lr_img):
        base = F.interpolate(lr_img, scale_factor=self.shuffle.upscale_factor, mode="bilinear",
                             align_corners=False)
        return base + self.shuffle(self.body(lr_img))


def texture_patches(n, size=16, gen=None):
    y, x = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    freq = torch.rand(n, 2, 1, 1, generator=gen) * 0.8 + 0.2
    phase = torch.rand(n, 1, 1, generator=gen) * 6.28
    hr = 0.5 + 0.4 * torch.sin(freq[:, 0] * x + freq[:, 1] * y + phase)
    return hr.unsqueeze(1)


def train(config):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    model = ESPCN(config["scale"])
    criterion = LOSSES[config["loss"]]
    optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
    for epoch in range(config["epochs"]):
        for _ in range(config["steps_per_epoch"]):
            hr = texture_patches(8, gen=gen)
            lr_img = F.avg_pool2d(hr, config["scale"])
            sr = model(lr_img)
            loss = criterion(sr, hr)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.5f} psnr {psnr_8bit(sr.detach(), hr):.2f} dB")
    return model


if __name__ == "__main__":
    train(CONFIG)
