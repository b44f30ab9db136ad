"""Spectral losses for the vocal separation model."""
import torch
import torch.nn as nn


class LogMagnitudeLoss(nn.Module):
    """L1 between log magnitudes of estimated and reference complex spectra."""

    def __init__(self, floor=1e-4):
        super().__init__()
        self.floor = nn.Threshold(floor, floor, inplace=True)

    def magnitude(self, re, im):
        return self.floor(torch.sqrt(re ** 2 + im ** 2))

    def forward(self, est_re, est_im, ref_re, ref_im):
        est = torch.log(self.magnitude(est_re, est_im))
        ref = torch.log(self.magnitude(ref_re, ref_im))
        return (est - ref).abs().mean()
