"""LIF neuron layer that keeps its membrane potential on the module, as stateful SNN
libraries do, so that a stream can be fed chunk by chunk."""
import torch
import torch.nn as nn


class SurrogateHeaviside(torch.autograd.Function):
    alpha = 4.0

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x >= 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        sg = torch.sigmoid(SurrogateHeaviside.alpha * x)
        return grad_out * SurrogateHeaviside.alpha * sg * (1 - sg)


class LIFNeuron(nn.Module):
    def __init__(self, batch_size, n_neurons, tau=2.0, v_threshold=1.0, v_reset=0.0):
        super().__init__()
        self.decay = 1.0 - 1.0 / tau
        self.v_threshold = v_threshold
        self.v_reset = v_reset
        self.v = torch.full((batch_size, n_neurons), v_reset)

    def forward(self, current):
        v = self.decay * self.v + current
        spike = SurrogateHeaviside.apply(v - self.v_threshold)
        self.v = v * (1.0 - spike.detach()) + self.v_reset * spike.detach()
        return spike
