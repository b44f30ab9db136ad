"""Object keypoint similarity (COCO-style) used directly as a training objective."""
import torch


def oks_loss(pred, target, area, sigmas):
    s = area[:, None]
    k = torch.as_tensor(sigmas, dtype=pred.dtype)[None, :] * 2.0
    d2 = ((pred - target) ** 2).sum(-1)
    oks = torch.exp(-d2 / (2.0 * s * k ** 2 + 1e-9)).mean(-1)
    return 1.0 - oks.mean()
