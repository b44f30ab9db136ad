"""Spiking classifier for a continuous event-sensor stream (e.g. a neuromorphic touch pad).
The stream is cut into chunks of STEPS time steps; each chunk is labelled with the gesture
being performed. Neurons are leaky integrate-and-fire units built by make_lif(), a closure
that keeps its membrane potential between calls so the next chunk continues the stream."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HID, N_OUT = 16, 24, 3
STEPS, BATCH, CHUNKS = 5, 8, 6


class SpikeFn(torch.autograd.Function):
    """Heaviside spike with a fast-sigmoid surrogate gradient."""

    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).to(v.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (1.0 + 5.0 * v.abs()) ** 2


def make_lif(beta=0.8, threshold=0.5):
    mem = None

    def run(currents):  # currents: (STEPS, BATCH, features)
        nonlocal mem
        if mem is None:
            mem = torch.zeros_like(currents[0])
        spikes = []
        for current in currents:
            reset = (mem > threshold).to(current.dtype)
            mem = beta * mem + current - reset * threshold
            spikes.append(SpikeFn.apply(mem - threshold))
        return torch.stack(spikes)

    return run


class SpikingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(N_IN, N_HID)
        self.fc2 = nn.Linear(N_HID, N_OUT)
        self.lif1 = make_lif()
        self.lif2 = make_lif(beta=0.9)

    def forward(self, events):  # events: (STEPS, BATCH, N_IN)
        hidden_spikes = self.lif1(self.fc1(events))
        out_spikes = self.lif2(self.fc2(hidden_spikes))
        return out_spikes.sum(0)  # spike counts act as logits


def event_stream(labels):
    rates = torch.tensor([[0.6, 0.1, 0.1], [0.1, 0.6, 0.1], [0.1, 0.1, 0.6]])
    chunks = []
    for label in labels:
        p = rates[label].repeat_interleave(N_IN // 3 + 1, dim=1)[:, :N_IN]
        chunks.append((torch.rand(STEPS, BATCH, N_IN) < p).float())
    return chunks


torch.manual_seed(0)
net = SpikingNet()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
labels = [torch.randint(0, N_OUT, (BATCH,)) for _ in range(CHUNKS)]
for step, (events, y) in enumerate(zip(event_stream(labels), labels)):
    counts = net(events)
    loss = F.cross_entropy(counts, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (counts.argmax(1) == y).float().mean().item()
    print(f"chunk {step} loss {loss.item():.4f} acc {acc:.2f}")
