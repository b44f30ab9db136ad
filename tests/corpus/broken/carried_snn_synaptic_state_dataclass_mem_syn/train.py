"""Second-order (synaptic) LIF network classifying gestures from a continuous event-sensor
stream. The stream is cut into chunks; the neuron state is kept in a dataclass so that the
network keeps integrating across chunk boundaries, like it will on the device."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HID, N_CLASSES, CHUNK_STEPS = 12, 24, 3, 5
ALPHA, BETA, THRESH = 0.8, 0.9, 1.0


@dataclass
class SynapticState:
    syn: torch.Tensor
    mem: torch.Tensor

    @classmethod
    def zeros(cls, batch, n):
        return cls(torch.zeros(batch, n), torch.zeros(batch, n))


def spike_fn(mem):
    """Heaviside forward, fast-sigmoid surrogate backward."""
    surrogate = torch.sigmoid(4.0 * (mem - THRESH))
    return (mem >= THRESH).float() + surrogate - surrogate.detach()


class SynapticSNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc_in = nn.Linear(N_IN, N_HID)
        self.readout = nn.Linear(N_HID, N_CLASSES)

    def forward(self, events, state):
        counts = torch.zeros(events.size(0), N_HID)
        for t in range(events.size(1)):
            reset = (state.mem >= THRESH).float()
            state.syn = ALPHA * state.syn + self.fc_in(events[:, t])
            state.mem = BETA * state.mem + state.syn - reset * THRESH
            counts = counts + spike_fn(state.mem)
        return self.readout(counts / events.size(1))


def event_stream(batch, n_chunks):
    labels = torch.randint(0, N_CLASSES, (batch, n_chunks))
    rates = 0.1 + 0.3 * F.one_hot(labels, N_CLASSES).float().repeat_interleave(4, dim=-1)
    rates = rates.repeat_interleave(CHUNK_STEPS, dim=1)
    return torch.bernoulli(rates), labels


def train(n_chunks=3, batch=8):
    torch.manual_seed(0)
    net = SynapticSNN()
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
    events, labels = event_stream(batch, n_chunks)
    state = SynapticState.zeros(batch, N_HID)
    for k in range(n_chunks):
        chunk = events[:, k * CHUNK_STEPS:(k + 1) * CHUNK_STEPS]
        logits = net(chunk, state)
        loss = F.cross_entropy(logits, labels[:, k])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"chunk {k} loss {loss.item():.4f} mean membrane {state.mem.mean().item():.4f}")


if __name__ == "__main__":
    train()
