"""Image-quality losses for the restoration models."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def _box_filter(img, win):
    """Mean over win x win windows ('valid' region) of a (N, C, H, W) array."""
    windows = np.lib.stride_tricks.sliding_window_view(img, (win, win), axis=(2, 3))
    return windows.mean(axis=(-1, -2))


def ssim_np(x, y, win=5, data_range=1.0):
    c1, c2 = (0.01 * data_range) ** 2, (0.03 * data_range) ** 2
    mu_x, mu_y = _box_filter(x, win), _box_filter(y, win)
    var_x = _box_filter(x * x, win) - mu_x ** 2
    var_y = _box_filter(y * y, win) - mu_y ** 2
    cov = _box_filter(x * y, win) - mu_x * mu_y
    ssim_map = ((2 * mu_x * mu_y + c1) * (2 * cov + c2)) / \
               ((mu_x ** 2 + mu_y ** 2 + c1) * (var_x + var_y + c2))
    return ssim_map.mean()


class SSIMLoss(nn.Module):
    """1 - SSIM, the same SSIM the validation report prints."""

    def __init__(self, win=5):
        super().__init__()
        self.win = win

    def forward(self, pred, target):
        score = ssim_np(pred.detach().cpu().numpy(), target.cpu().numpy(), self.win)
        return torch.from_numpy(np.asarray(1.0 - score, dtype=np.float32))


def psnr(pred, target):
    return (10 * torch.log10(1.0 / F.mse_loss(pred, target))).item()
