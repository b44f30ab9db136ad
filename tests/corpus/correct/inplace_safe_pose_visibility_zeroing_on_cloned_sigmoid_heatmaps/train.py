"""Heatmap pose estimator: invisible joints are zeroed on a clone of the sigmoid heatmaps,
so sigmoid's saved output is never touched."""
import torch
import torch.nn as nn
import torch.nn.functional as F

J, H, W = 4, 8, 8


def gaussian_targets(coords, sigma=1.0):
    ys = torch.arange(H).float().view(1, 1, H, 1)
    xs = torch.arange(W).float().view(1, 1, 1, W)
    cx, cy = coords[..., 0, None, None], coords[..., 1, None, None]
    return torch.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma ** 2))


class HeatmapNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(inplace=True),
            nn.Conv2d(16, 16, 3, padding=1),
            nn.ReLU(inplace=True),
        )
        self.out = nn.Conv2d(16, J, 1)

    def forward(self, img):
        return torch.sigmoid(self.out(self.features(img)))


def train(iters=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(21)
    model = HeatmapNet()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for it in range(iters):
        img = torch.randn(4, 1, H, W, generator=gen)
        coords = torch.rand(4, J, 2, generator=gen) * (W - 1)
        visible = torch.rand(4, J, generator=gen) > 0.25

        heat = model(img)
        masked = heat.clone()
        masked[~visible] = 0.0
        target = gaussian_targets(coords) * visible[..., None, None]
        loss = F.mse_loss(masked, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it} mse {loss.item():.6f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
