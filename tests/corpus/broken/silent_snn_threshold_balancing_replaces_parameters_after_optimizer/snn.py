"""Leaky integrate-and-fire layers with a learnable firing threshold, trained through a
fast-sigmoid surrogate gradient."""
import torch
import torch.nn as nn


class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v, slope):
        ctx.save_for_backward(v)
        ctx.slope = slope
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (1.0 + ctx.slope * v.abs()) ** 2, None


class LIF(nn.Module):
    def __init__(self, beta=0.85, threshold=1.0, slope=5.0):
        super().__init__()
        self.beta = beta
        self.slope = slope
        self.threshold = nn.Parameter(torch.tensor(threshold))

    def forward(self, current):  # (T, B, N)
        mem = torch.zeros_like(current[0])
        spikes = []
        for i_t in current:
            mem = self.beta * mem + i_t
            spk = FastSigmoidSpike.apply(mem - self.threshold, self.slope)
            mem = mem - spk * self.threshold
            spikes.append(spk)
        return torch.stack(spikes)


class SpikingMLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.lif1 = LIF()
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.lif2 = LIF()

    def forward(self, x):  # (T, B, n_in) spikes
        s1 = self.lif1(self.fc1(x))
        s2 = self.lif2(self.fc2(s1))
        return s2.sum(0), s1.mean()
