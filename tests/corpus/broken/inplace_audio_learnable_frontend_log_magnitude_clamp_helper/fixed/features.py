"""Front-end helpers shared by the keyword-spotting experiments."""
import math

import torch


def gabor_init(n_filters, kernel, sample_rate):
    """Real/imaginary Gabor kernels with centre frequencies on a mel-like scale."""
    mel = torch.linspace(0, 2595 * math.log10(1 + (sample_rate / 2) / 700), n_filters + 2)[1:-1]
    hz = 700 * (10 ** (mel / 2595) - 1)
    t = torch.arange(kernel) - kernel // 2
    window = torch.hann_window(kernel, periodic=False)
    phase = 2 * math.pi * hz[:, None] * t[None, :] / sample_rate
    return (window * torch.cos(phase)).unsqueeze(1), (window * torch.sin(phase)).unsqueeze(1)


def log_magnitude(real, imag, floor=1e-4):
    """log |X| of a complex filterbank response, floored so silent frames stay finite."""
    mag = torch.sqrt(real.pow(2) + imag.pow(2))
    mag = mag.clamp(min=floor)
    return torch.log(mag)


def per_channel_norm(feats, eps=1e-5):
    mean = feats.mean(dim=-1, keepdim=True)
    std = feats.std(dim=-1, keepdim=True)
    return (feats - mean) / (std + eps)
