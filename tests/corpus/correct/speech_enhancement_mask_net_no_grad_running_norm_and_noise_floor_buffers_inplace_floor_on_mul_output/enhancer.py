"""Spectral-mask speech enhancer with streaming-style state kept in buffers.

All the in-place writes here touch tensors that no autograd node saved:
- running_mean / running_var are refreshed under no_grad *before* they are read, and are
  only combined with the (grad-free) noisy features;
- noise_floor is read through a product with the grad-free noisy magnitude, so the floor
  term is a new tensor, and the buffer is updated under no_grad afterwards;
- the spectral floor is added in place to mask * noisy_mag: MulBackward saved the mask and
  the noisy magnitude, not the product.
"""
import torch
import torch.nn as nn


class MaskEnhancer(nn.Module):
    def __init__(self, n_freq, hidden=48, momentum=0.1, floor_momentum=0.05):
        super().__init__()
        self.gru = nn.GRU(n_freq, hidden, batch_first=True)
        self.mask = nn.Sequential(nn.Linear(hidden, n_freq), nn.Sigmoid())
        self.register_buffer("running_mean", torch.zeros(n_freq))
        self.register_buffer("running_var", torch.ones(n_freq))
        self.register_buffer("noise_floor", torch.full((n_freq,), 0.05))
        self.momentum, self.floor_momentum = momentum, floor_momentum

    def forward(self, noisy_mag):
        """noisy_mag: (B, frames, freq) magnitude spectrogram -> enhanced magnitude."""
        logmag = torch.log1p(noisy_mag)
        if self.training:
            with torch.no_grad():
                self.running_mean.lerp_(logmag.mean(dim=(0, 1)), self.momentum)
                self.running_var.lerp_(logmag.var(dim=(0, 1)), self.momentum)
        feats = (logmag - self.running_mean) * torch.rsqrt(self.running_var + 1e-5)
        mask = self.mask(self.gru(feats)[0])
        enhanced = mask * noisy_mag
        enhanced.add_(1e-4)                               # keep log1p/ratios finite
        enhanced = torch.maximum(enhanced, self.noise_floor * noisy_mag)
        if self.training:
            with torch.no_grad():
                quiet = noisy_mag.quantile(0.1, dim=1).mean(dim=0) / (noisy_mag.mean(dim=(0, 1)) + 1e-6)
                self.noise_floor.lerp_(quiet.clamp(0.01, 0.3), self.floor_momentum)
        return enhanced
