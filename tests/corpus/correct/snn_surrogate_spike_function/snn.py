"""Leaky integrate-and-fire layer with a surrogate-gradient spike function."""
import torch
import torch.nn as nn


class FastSigmoidSpike(torch.autograd.Function):
    """Heaviside step forward, fast-sigmoid derivative backward."""

    @staticmethod
    def forward(ctx, v_minus_thresh, slope):
        ctx.save_for_backward(v_minus_thresh)
        ctx.slope = slope
        return (v_minus_thresh > 0).to(v_minus_thresh.dtype)

    @staticmethod
    def backward(ctx, grad_spike):
        (v,) = ctx.saved_tensors
        surrogate = 1.0 / (ctx.slope * v.abs() + 1.0) ** 2
        return grad_spike * surrogate, None


class LIF(nn.Module):
    def __init__(self, beta=0.85, threshold=1.0, slope=5.0):
        super().__init__()
        self.beta, self.threshold, self.slope = beta, threshold, slope

    def forward(self, current, mem):
        mem = self.beta * mem + current
        spk = FastSigmoidSpike.apply(mem - self.threshold, self.slope)
        mem = mem - spk * self.threshold   # soft reset, out of place
        return spk, mem
