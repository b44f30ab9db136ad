"""Layers ported from our old Keras code base (kernel_constraint=max_norm(c))."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaxNormConv2d(nn.Conv2d):
    """Conv2d whose filters are kept inside an L2 ball of radius `max_norm`, like Keras'
    kernel_constraint. The constraint is enforced every time the layer runs."""

    def __init__(self, *args, max_norm=2.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_norm = max_norm

    def _project(self):
        with torch.no_grad():
            norms = self.weight.flatten(1).norm(dim=1).clamp(min=1e-8)
            scale = (self.max_norm / norms).clamp(max=1.0)
            self.weight.mul_(scale.view(-1, 1, 1, 1))

    def forward(self, x):
        self._project()
        return F.conv2d(x, self.weight, self.bias, self.stride, self.padding)


def conv_block(c_in, c_out, constrained=False):
    conv = MaxNormConv2d(c_in, c_out, 3, padding=1) if constrained else nn.Conv2d(
        c_in, c_out, 3, padding=1)
    return nn.Sequential(conv, nn.BatchNorm2d(c_out), nn.ReLU(), nn.MaxPool2d(2))
