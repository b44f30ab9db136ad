"""Adaptive leaky integrate-and-fire (ALIF) layer with a fast-sigmoid surrogate gradient.

Each spike raises the neuron's threshold through an adaptation variable `a` that decays
slowly (rho close to 1), which lets the layer keep a trace of recent activity."""
import torch
import torch.nn as nn

BETA, RHO, B0, ADAPT = 0.85, 0.95, 1.0, 0.3


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out / (1.0 + 5.0 * x.abs()) ** 2


class ALIFLayer(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.v = None
        self.a = None

    def reset(self):
        """Start a new sample: clear the membrane potential and the threshold adaptation."""
        self.v = None
        self.a = None

    def forward(self, x_t):
        cur = self.fc(x_t)
        if self.v is None:
            self.v = torch.zeros_like(cur)
        if self.a is None:
            self.a = torch.zeros_like(cur)
        threshold = B0 + ADAPT * self.a
        self.v = BETA * self.v + cur
        spk = SpikeFn.apply(self.v - threshold)
        self.v = self.v - spk.detach() * threshold
        self.a = RHO * self.a + spk
        return spk


class LeakyReadout(nn.Module):
    """Non-spiking leaky integrator over the whole sample; its potential is the logit."""

    def __init__(self, n_in, n_out, beta=0.9):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.beta = beta

    def forward(self, spikes):
        u = torch.zeros(spikes.size(0), self.fc.out_features)
        for t in range(spikes.size(1)):
            u = self.beta * u + self.fc(spikes[:, t])
        return u
