"""Self-supervised (SSDU-style) reconstruction of undersampled MRI slices.

These scans only exist undersampled, so there is no fully sampled target: the measured
phase-encode lines are split in two, one set builds the zero-filled network input and the
other is held out; the loss compares the reconstruction's k-space with the held-out lines.
"""
import numpy as np
import torch
import torch.nn as nn

import mri_ops

SIZE = 16
CONFIG = {"n_slices": 24, "batch": 8, "epochs": 2, "lr": 2e-3}


class ReconNet(nn.Module):
    """Residual CNN refining the zero-filled image."""

    def __init__(self, channels=8):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, 1, 3, padding=1),
        )

    def forward(self, x):
        return x + self.body(x)


def phantoms(n, gen):
    """Smooth blob phantoms standing in for axial slices."""
    yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    images = torch.zeros(n, SIZE, SIZE)
    for i in range(n):
        for _ in range(3):
            cy, cx = (torch.randint(3, SIZE - 3, (2,), generator=gen)).float()
            radius = 1.5 + 2.0 * torch.rand(1, generator=gen)
            images[i] += torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * radius ** 2))
    return images


def split_masks(rng, width, accel=2, centre=4):
    """Random phase-encode undersampling, split into input lines and held-out loss lines."""
    lo, hi = width // 2 - centre // 2, width // 2 + centre // 2
    sampled = rng.random(width) < 1.0 / accel
    sampled[lo:hi] = True
    held_out = sampled & (rng.random(width) < 0.4)
    held_out[lo:hi] = False
    return (sampled & ~held_out).astype(np.float32), held_out.astype(np.float32)


def train(cfg):
    gen = torch.Generator().manual_seed(0)
    rng = np.random.default_rng(0)
    kspace = mri_ops.fft2c(phantoms(cfg["n_slices"], gen))
    input_mask, loss_mask = split_masks(rng, SIZE)
    inputs = mri_ops.zero_filled(kspace, input_mask).unsqueeze(1)

    model = ReconNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch"]
    for epoch in range(cfg["epochs"]):
        total = 0.0
        for start in range(0, cfg["n_slices"], bs):
            recon = model(inputs[start:start + bs])
            loss = mri_ops.kspace_l1(recon, kspace[start:start + bs], loss_mask)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} held-out k-space L1 {total / (cfg['n_slices'] // bs):.5f}")
    return model


torch.manual_seed(0)
model = train(CONFIG)
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
