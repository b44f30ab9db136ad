"""Restoration losses (Charbonnier + Laplacian edge loss), as in MPRNet / DGUNet."""
import torch
import torch.nn.functional as F

_LAPLACE = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)


def charbonnier(pred, target, eps=1e-3):
    return torch.sqrt((pred - target).pow(2) + eps * eps).mean()


def edge_loss(pred, target):
    kernel = _LAPLACE.repeat(pred.shape[1], 1, 1, 1)
    lap_pred = F.conv2d(pred, kernel, padding=1, groups=pred.shape[1])
    lap_target = F.conv2d(target, kernel, padding=1, groups=target.shape[1])
    return charbonnier(lap_pred, lap_target)
