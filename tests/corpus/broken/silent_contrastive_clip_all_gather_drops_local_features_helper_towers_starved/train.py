"""Image-text contrastive pretraining on synthetic captioned sprites: each image shows one of
six colours and one of five shapes, each caption names them. A conv image tower and a
token-embedding text tower are trained with ClipLoss (losses.py) over the batch gathered from
all data-parallel workers (dist_utils.py)."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from dist_utils import init_distributed
from losses import ClipLoss

COLOURS, SHAPES, DIM = 6, 5, 24


@dataclass
class RunConfig:
    batch_size: int = 16
    steps: int = 6
    lr: float = 2e-3
    init_temperature: float = 0.07


class ImageTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(12, 12, 3, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.proj = nn.Linear(12, DIM)

    def forward(self, images):
        return F.normalize(self.proj(self.conv(images)), dim=-1)


class TextTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = nn.Embedding(COLOURS + SHAPES, DIM)
        self.mix = nn.Sequential(nn.Linear(2 * DIM, DIM), nn.Tanh(), nn.Linear(DIM, DIM))

    def forward(self, captions):
        return F.normalize(self.mix(self.tokens(captions).flatten(1)), dim=-1)


class DualEncoder(nn.Module):
    def __init__(self, init_temperature):
        super().__init__()
        self.visual, self.text = ImageTower(), TextTower()
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / init_temperature)))


def sprites(batch_size, gen):
    colour = torch.randint(0, COLOURS, (batch_size,), generator=gen)
    shape = torch.randint(0, SHAPES, (batch_size,), generator=gen)
    palette = torch.rand(COLOURS, 3, generator=torch.Generator().manual_seed(1))
    masks = torch.rand(SHAPES, 1, 8, 8, generator=torch.Generator().manual_seed(2)) > 0.5
    images = palette[colour][:, :, None, None] * masks[shape].float()
    images = images + 0.05 * torch.randn(images.shape, generator=gen)
    captions = torch.stack([colour, COLOURS + shape], dim=1)
    return images, captions


def main(cfg=RunConfig()):
    rank, world_size = init_distributed()
    torch.manual_seed(0 + rank)
    gen = torch.Generator().manual_seed(rank)
    model = DualEncoder(cfg.init_temperature)
    criterion = ClipLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=0.02)
    for step in range(cfg.steps):
        images, captions = sprites(cfg.batch_size, gen)
        loss = criterion(model.visual(images), model.text(captions), model.logit_scale.exp())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            model.logit_scale.clamp_(0, math.log(100))
        if rank == 0:
            print(f"step {step} loss {loss.item():.4f} scale {model.logit_scale.exp().item():.2f}")


if __name__ == "__main__":
    main()
