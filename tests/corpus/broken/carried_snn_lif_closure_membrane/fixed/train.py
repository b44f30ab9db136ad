"""Two-layer spiking classifier on rate-coded inputs. Leaky integrate-and-fire neurons are
written as closures that keep their membrane potential between calls."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_IN, N_HID, N_OUT, T_STEPS, BATCH = 10, 20, 3, 6, 8


class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (1.0 + 10.0 * v.abs()) ** 2


def make_lif(beta=0.85, threshold=1.0):
    mem = None

    def lif(current):
        nonlocal mem
        if mem is None:
            mem = torch.zeros_like(current)
        reset = (mem > threshold).float()
        mem = beta * mem + current - reset * threshold
        return FastSigmoidSpike.apply(mem - threshold)

    def reset():
        nonlocal mem
        mem = None

    lif.reset = reset
    return lif


fc1, fc2 = nn.Linear(N_IN, N_HID), nn.Linear(N_HID, N_OUT)
lif1, lif2 = make_lif(), make_lif()
optimizer = torch.optim.Adam(list(fc1.parameters()) + list(fc2.parameters()), lr=5e-3)

prototypes = torch.rand(N_OUT, N_IN)
for batch_idx in range(5):
    labels = torch.randint(0, N_OUT, (BATCH,))
    rates = prototypes[labels]
    lif1.reset()
    lif2.reset()
    spike_count = torch.zeros(BATCH, N_OUT)
    for t in range(T_STEPS):
        x_t = torch.bernoulli(rates)
        spk1 = lif1(fc1(x_t) * 2.0)
        spike_count = spike_count + lif2(fc2(spk1) * 2.0)
    loss = F.cross_entropy(spike_count, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (spike_count.argmax(1) == labels).float().mean().item()
    print(f"batch {batch_idx}: loss {loss.item():.4f} acc {acc:.2f}")
