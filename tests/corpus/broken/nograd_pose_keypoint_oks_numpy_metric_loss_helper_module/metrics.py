"""Object keypoint similarity (COCO-style) used directly as a training objective."""
import numpy as np
import torch


def oks_loss(pred, target, area, sigmas):
    p = pred.detach().cpu().numpy()
    g = target.cpu().numpy()
    s = area.cpu().numpy()[:, None]
    k = np.asarray(sigmas)[None, :] * 2.0
    d2 = ((p - g) ** 2).sum(-1)
    oks = np.exp(-d2 / (2.0 * s * k ** 2 + 1e-9)).mean(-1)
    return torch.tensor(1.0 - oks.mean(), dtype=torch.float32)
