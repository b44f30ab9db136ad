"""x2 super-resolution of synthetic textures with a small ESPCN (sub-pixel convolution).
The LR inputs are strided samples of the HR images, so the network's output is made
consistent with them before the L1 loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ops import paste_known_pixels, psnr

torch.manual_seed(0)
SCALE, HR = 2, 16


class ESPCN(nn.Module):
    def __init__(self, scale=SCALE, width=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, width, 5, padding=2), nn.Tanh(),
            nn.Conv2d(width, width // 2, 3, padding=1), nn.Tanh(),
            nn.Conv2d(width // 2, scale ** 2, 3, padding=1),
        )
        self.shuffle = nn.PixelShuffle(scale)

    def forward(self, lr):
        return torch.sigmoid(self.shuffle(self.body(lr)))


def textures(n):
    yy, xx = torch.meshgrid(torch.linspace(0, 1, HR), torch.linspace(0, 1, HR), indexing="ij")
    freq = torch.rand(n, 1, 1, 1) * 6 + 2
    angle = torch.rand(n, 1, 1, 1) * 3.14
    hr = 0.5 + 0.4 * torch.sin(freq * (xx * torch.cos(angle) + yy * torch.sin(angle)) * 3.14)
    return hr, hr[..., ::SCALE, ::SCALE]


class SRTrainer:
    def __init__(self, model, lr=2e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def fit(self, epochs=2, batches=3):
        for epoch in range(epochs):
            for _ in range(batches):
                hr, lr = textures(8)
                sr = paste_known_pixels(self.model(lr), lr, SCALE)
                loss = F.l1_loss(sr, hr)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch} l1 {loss.item():.4f} psnr {psnr(sr.detach(), hr).item():.2f}")


if __name__ == "__main__":
    SRTrainer(ESPCN()).fit()
