"""Warping, local cost volume and monitoring helpers for the iterative flow estimator."""
import torch
import torch.nn.functional as F


def warp(image, flow):
    """Sample image (B, C, H, W) at x + flow(x): backward warping with bilinear grid_sample."""
    b, _, h, w = image.shape
    ys, xs = torch.meshgrid(torch.arange(h, dtype=flow.dtype), torch.arange(w, dtype=flow.dtype),
                            indexing="ij")
    grid = torch.stack([xs, ys], dim=-1).expand(b, h, w, 2) + flow.permute(0, 2, 3, 1)
    grid[..., 0] = 2 * grid[..., 0] / (w - 1) - 1
    grid[..., 1] = 2 * grid[..., 1] / (h - 1) - 1
    return F.grid_sample(image, grid, align_corners=True, padding_mode="border")


def local_cost_volume(fmap1, fmap2, radius=1):
    """Mean feature correlation between fmap1 and fmap2 shifted by every displacement within
    radius: (B, (2r+1)^2, H, W)."""
    h, w = fmap1.shape[-2:]
    padded = F.pad(fmap2, [radius] * 4)
    size = 2 * radius + 1
    volume = torch.cat([(fmap1 * padded[:, :, dy:dy + h, dx:dx + w]).mean(1, keepdim=True)
                        for dy in range(size) for dx in range(size)], dim=1)
    return F.leaky_relu(volume, 0.1, inplace=True)


class UpdateMonitor:
    """Forward hook recording the mean magnitude of each flow update (returns nothing, so the
    module's output is left untouched)."""

    def __init__(self):
        self.magnitudes = []

    def __call__(self, module, inputs, output):
        self.magnitudes.append(output.detach().abs().mean().item())
