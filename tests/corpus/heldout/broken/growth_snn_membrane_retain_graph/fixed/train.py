"""Spiking classifier (one leaky integrate-and-fire layer, surrogate gradient) on rate-coded
inputs. The membrane potential is kept from batch to batch, as in a streaming deployment;
retain_graph=True was added when the second backward complained."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_IN, N_HIDDEN, N_OUT, T, BATCH, BETA, THRESH = 20, 32, 3, 6, 16, 0.9, 1.0


class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (1 + 10 * v.abs()) ** 2


spike = FastSigmoidSpike.apply
fc_in = nn.Linear(N_IN, N_HIDDEN)
readout = nn.Linear(N_HIDDEN, N_OUT)
optimizer = torch.optim.Adam([*fc_in.parameters(), *readout.parameters()], lr=2e-3)
prototypes = torch.rand(N_OUT, N_IN)


def rate_coded_batch(n):
    labels = torch.randint(0, N_OUT, (n,))
    rates = prototypes[labels] * 0.8
    return (torch.rand(T, n, N_IN) < rates).float(), labels


mem = torch.zeros(BATCH, N_HIDDEN)
for step in range(10):
    inputs, labels = rate_coded_batch(BATCH)
    mem = mem.detach()
    logits = torch.zeros(BATCH, N_OUT)
    for t in range(T):
        spk = spike(mem - THRESH)
        mem = BETA * mem + fc_in(inputs[t]) - spk * THRESH
        logits = logits + readout(spk)
    loss = F.cross_entropy(logits / T, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
