"""Keypoint detection with a heatmap head and soft-argmax decoding (DSNT style): each image
holds K landmarks rendered as blobs on a noisy background; the detector predicts one heatmap
per landmark and is trained on the decoded coordinates plus a heatmap sharpness term."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from heads import HeatmapHead, soft_argmax

K, SIZE = 3, 16


class KeypointNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(K, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU())
        self.head = HeatmapHead(channels, K)

    def forward(self, images):
        return self.head(self.backbone(images))


def render(coords, sigma=1.2):
    ys = torch.arange(SIZE).float().view(1, 1, SIZE, 1)
    xs = torch.arange(SIZE).float().view(1, 1, 1, SIZE)
    d2 = (xs - coords[..., 0, None, None]) ** 2 + (ys - coords[..., 1, None, None]) ** 2
    return torch.exp(-d2 / (2 * sigma ** 2))


def make_batch(batch_size, gen):
    coords = 2 + (SIZE - 4) * torch.rand(batch_size, K, 2, generator=gen)
    images = render(coords) + 0.1 * torch.randn(batch_size, K, SIZE, SIZE, generator=gen)
    return images, coords


def train(model, optimizer, epochs=2, steps=3, batch_size=16):
    gen = torch.Generator().manual_seed(0)
    for epoch in range(epochs):
        for step in range(steps):
            images, coords = make_batch(batch_size, gen)
            heatmaps = model(images)
            pred = soft_argmax(heatmaps)
            coord_loss = F.smooth_l1_loss(pred, coords)
            target_maps = render(coords)
            target_maps = target_maps / target_maps.sum(dim=(-2, -1), keepdim=True)
            js_loss = F.mse_loss(heatmaps, target_maps) * SIZE * SIZE
            loss = coord_loss + js_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        err = (pred - coords).norm(dim=-1).mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} mean keypoint error {err:.3f}px")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = KeypointNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    train(model, optimizer)
