"""Spiking MLP (leaky integrate-and-fire) on rate-coded synthetic digits.

Each sample is presented for NUM_STEPS time steps; spikes use a fast-sigmoid surrogate
gradient. The LIF layers keep their membrane potential on self and (re)initialise it
whenever the incoming current has a new shape.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HIDDEN, N_CLASSES, NUM_STEPS, BATCH = 36, 48, 4, 6, 8


class FastSigmoidSpike(torch.autograd.Function):
    scale = 10.0

    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (FastSigmoidSpike.scale * v.abs() + 1.0) ** 2


class LIF(nn.Module):
    def __init__(self, beta=0.9, threshold=1.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold
        self.mem = None

    def forward(self, current):
        if self.mem is None or self.mem.shape != current.shape:
            self.mem = torch.zeros_like(current)
        mem = self.beta * self.mem + current
        spk = FastSigmoidSpike.apply(mem - self.threshold)
        self.mem = mem - spk * self.threshold
        return spk


def rate_code(images, steps):
    return (torch.rand(steps, *images.shape) < images).float()


def make_dataset(n):
    prototypes = (torch.rand(N_CLASSES, N_IN) > 0.6).float() * 0.8 + 0.1
    labels = torch.randint(0, N_CLASSES, (n,))
    images = (prototypes[labels] + 0.1 * torch.randn(n, N_IN)).clamp(0, 1)
    return images, labels


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(N_IN, N_HIDDEN), LIF(), nn.Linear(N_HIDDEN, N_CLASSES), LIF())
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
    images, labels = make_dataset(4 * BATCH)
    for epoch in range(2):
        for i in range(0, images.size(0), BATCH):
            x, y = images[i:i + BATCH], labels[i:i + BATCH]
            for layer in net:
                if isinstance(layer, LIF):
                    layer.mem = None  # every batch holds new samples: start from rest
            spikes = rate_code(x, NUM_STEPS)
            out_spikes = torch.stack([net(spikes[t]) for t in range(NUM_STEPS)])
            spike_counts = out_spikes.sum(0)
            loss = F.cross_entropy(spike_counts, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            acc = (spike_counts.argmax(1) == y).float().mean().item()
            print(f"epoch {epoch} batch {i // BATCH} loss {loss.item():.4f} acc {acc:.2f}")
    return net


if __name__ == "__main__":
    main()
