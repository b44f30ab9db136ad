"""Binary segmentation of bright elliptical cells in noisy 24x24 micrographs with a small
encoder-decoder, trained on Dice + BCE. A monitor reports how much of the logit gradient
goes to confidently wrong pixels at each step."""
import torch
import torch.nn as nn

from losses import dice_bce
from monitors import HardPixelMonitor

SIZE, BATCH = 24, 8


class TinySegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.ConvTranspose2d(16, 8, 2, stride=2), nn.ReLU())
        self.head = nn.Conv2d(8 + 1, 1, 3, padding=1)

    def forward(self, images):
        feats = self.dec(self.enc(images))
        return self.head(torch.cat([feats, images], dim=1))


def cell_images(n, gen):
    ys, xs = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    masks = torch.zeros(n, 1, SIZE, SIZE)
    for i in range(n):
        for _ in range(2):
            cy, cx = (torch.rand(2, generator=gen) * (SIZE - 8) + 4).tolist()
            ry, rx = (torch.rand(2, generator=gen) * 3 + 2).tolist()
            masks[i, 0] += (((ys - cy) / ry) ** 2 + ((xs - cx) / rx) ** 2 <= 1).float()
    masks = masks.clamp(max=1.0)
    images = 0.8 * masks + 0.35 * torch.randn(n, 1, SIZE, SIZE, generator=gen)
    return images, masks


torch.manual_seed(0)
gen = torch.Generator().manual_seed(4)
model = TinySegNet()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
monitor = HardPixelMonitor()
for step in range(6):
    images, masks = cell_images(BATCH, gen)
    logits = model(images)
    loss = dice_bce(logits, masks)
    monitor.attach(loss, logits, masks)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} hard-pixel grad share {monitor.history[-1]:.3f}")
