"""Colour-space helpers for colour-preserving style transfer (Gatys et al. 2016,
"Preserving Color in Neural Artistic Style Transfer"): style is transferred on the
luminance channel only, so the output keeps the colours of the content photo."""
import numpy as np
import torch

RGB_TO_YIQ = np.array([[0.299, 0.587, 0.114],
                       [0.596, -0.274, -0.322],
                       [0.211, -0.523, 0.312]], dtype=np.float32)


def rgb_to_yiq(images):
    """(B, 3, H, W) RGB in [0, 1] -> (B, 3, H, W) YIQ."""
    matrix = torch.from_numpy(RGB_TO_YIQ).to(images)
    return torch.einsum("ij,bjhw->bihw", matrix, images)


def luminance(images):
    """Luminance channel Y, as a (B, 1, H, W) image."""
    return rgb_to_yiq(images)[:, :1]


def match_luminance(source_y, target_y):
    """Shift/scale the style luminance so its mean and std match the content's."""
    return (source_y - source_y.mean()) / (source_y.std() + 1e-6) * target_y.std() + target_y.mean()
