"""Spiking neuron layers with learnable per-neuron decay (snnTorch-style
`learn_beta`), shared by the group's experiments."""
import torch
import torch.nn as nn


class ATanSpike(torch.autograd.Function):
    """Heaviside forward, arctan surrogate backward."""

    @staticmethod
    def forward(ctx, x, alpha=2.0):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x > 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        a = ctx.alpha
        return grad_out * (a / 2) / (1 + (torch.pi / 2 * a * x) ** 2), None


class LearnableLIF(nn.Module):
    def __init__(self, n, beta=0.9, threshold=1.0):
        super().__init__()
        self.beta = nn.Parameter(torch.full((n,), beta))
        self.threshold = threshold
        self.mem = None

    def reset(self, batch_size):
        self.mem = torch.zeros(batch_size, self.beta.numel())

    def forward(self, current):
        # keep every decay inside [0, 1] so the membrane cannot blow up
        with torch.no_grad():
            self.beta.clamp_(0.0, 1.0)
        self.mem = self.beta * self.mem + current
        spk = ATanSpike.apply(self.mem - self.threshold)
        self.mem = self.mem - spk * self.threshold
        return spk


class SpikingMLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.lif1 = LearnableLIF(n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.lif2 = LearnableLIF(n_out, beta=0.95)

    def forward(self, x_seq):
        self.lif1.reset(x_seq.shape[1])
        self.lif2.reset(x_seq.shape[1])
        counts = 0
        for x in x_seq:
            counts = counts + self.lif2(self.fc2(self.lif1(self.fc1(x))))
        return counts
