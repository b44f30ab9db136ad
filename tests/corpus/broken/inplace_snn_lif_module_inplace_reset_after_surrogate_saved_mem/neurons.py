"""Leaky integrate-and-fire neuron with a fast-sigmoid surrogate gradient."""
import torch
import torch.nn as nn


class FastSigmoidSpike(torch.autograd.Function):
    """Heaviside step forward; derivative of a fast sigmoid backward (Zenke & Ganguli)."""

    @staticmethod
    def forward(ctx, mem, threshold, slope):
        ctx.save_for_backward(mem)
        ctx.threshold, ctx.slope = threshold, slope
        return (mem > threshold).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        surrogate = 1.0 / (ctx.slope * (mem - ctx.threshold).abs() + 1.0) ** 2
        return grad_output * surrogate, None, None


class LeakyIntegrateFire(nn.Module):
    """One LIF update per call; the membrane is updated in place to save memory over long
    spike trains."""

    def __init__(self, beta=0.9, threshold=1.0, slope=5.0):
        super().__init__()
        self.beta, self.threshold, self.slope = beta, threshold, slope

    def forward(self, cur, mem):
        mem *= self.beta
        mem += cur
        spk = FastSigmoidSpike.apply(mem, self.threshold, self.slope)
        mem -= spk.detach() * self.threshold
        return spk, mem
