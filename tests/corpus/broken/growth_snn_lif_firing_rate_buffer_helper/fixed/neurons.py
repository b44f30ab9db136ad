"""Leaky integrate-and-fire layer trained with a fast-sigmoid surrogate gradient. Each layer
keeps an exponential trace of its population firing rate in a buffer, so the training
script can spot dead or saturated layers without an extra forward pass."""
import torch
import torch.nn as nn


class FastSigmoidSpike(torch.autograd.Function):
    """Heaviside step forward, fast-sigmoid derivative backward (SuperSpike)."""

    @staticmethod
    def forward(ctx, v, slope):
        ctx.save_for_backward(v)
        ctx.slope = slope
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (ctx.slope * v.abs() + 1.0) ** 2, None


class LIFLayer(nn.Module):
    def __init__(self, n_in, n_out, beta=0.85, threshold=1.0, rate_decay=0.9):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.beta = beta
        self.threshold = threshold
        self.rate_decay = rate_decay
        self.register_buffer("firing_rate", torch.zeros(n_out))

    def forward(self, x_seq):
        """x_seq: (time, batch, n_in) spike trains -> (time, batch, n_out) spikes."""
        mem = torch.zeros(x_seq.shape[1], self.fc.out_features)
        spikes = []
        for x_t in x_seq:
            mem = self.beta * mem + self.fc(x_t)
            spk = FastSigmoidSpike.apply(mem - self.threshold, 10.0)
            mem = mem - spk * self.threshold  # soft reset
            spikes.append(spk)
        spikes = torch.stack(spikes)
        if self.training:
            with torch.no_grad():
                batch_rate = spikes.mean(dim=(0, 1))
                self.firing_rate.mul_(self.rate_decay).add_((1 - self.rate_decay) * batch_rate)
        return spikes
