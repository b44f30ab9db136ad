"""Small int8 quantisation-aware-training toolkit: symmetric per-tensor fake quantisation
of weights and activations, so training sees the rounding the deployed model will do."""
import torch
import torch.nn as nn
import torch.nn.functional as F

QMIN, QMAX = -128, 127


def fake_quant(x, scale):
    """Snap x onto the int8 grid defined by scale and map it back to float.

    Straight-through estimator: the forward value is the quantised one, the gradient
    passes through the rounding as if it were the identity.
    """
    q = torch.clamp(torch.round(x / scale), QMIN, QMAX)
    return x + (q * scale - x).detach()


def weight_scale(w):
    return w.detach().abs().max().clamp(min=1e-8) / QMAX


class QuantConv2d(nn.Conv2d):
    def forward(self, x):
        w_q = fake_quant(self.weight, weight_scale(self.weight))
        return F.conv2d(x, w_q, self.bias, self.stride, self.padding)


class QuantLinear(nn.Linear):
    def forward(self, x):
        return F.linear(x, fake_quant(self.weight, weight_scale(self.weight)), self.bias)


class ActQuant(nn.Module):
    """Activation fake-quant with an EMA range observer (frozen at eval)."""

    def __init__(self, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_max", torch.tensor(0.0))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                peak = x.abs().max()
                if self.running_max == 0:
                    self.running_max.copy_(peak)
                else:
                    self.running_max.lerp_(peak, self.momentum)
        return fake_quant(x, self.running_max.clamp(min=1e-8) / QMAX)
