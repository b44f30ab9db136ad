"""Recurrent spiking network trained on a long event stream with truncated BPTT. The neuron
state (membrane and recurrent spikes) lives in a dataclass that is carried from one chunk to
the next and cut from the graph at every chunk boundary."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HID, N_CLASSES, CHUNK, BATCH = 10, 24, 3, 6, 8
BETA, THRESH = 0.9, 1.0


def spike(mem):
    surrogate = torch.sigmoid(4.0 * (mem - THRESH))
    return (mem > THRESH).float() + surrogate - surrogate.detach()


@dataclass
class NeuronState:
    mem: torch.Tensor
    spk: torch.Tensor

    @classmethod
    def zeros(cls, batch):
        return cls(torch.zeros(batch, N_HID), torch.zeros(batch, N_HID))

    def detached(self):
        return NeuronState(self.mem.detach(), self.spk.detach())


class RecurrentLIF(nn.Module):
    def __init__(self):
        super().__init__()
        self.w_in = nn.Linear(N_IN, N_HID)
        self.w_rec = nn.Linear(N_HID, N_HID, bias=False)
        self.readout = nn.Linear(N_HID, N_CLASSES)

    def forward(self, events, state):
        logits = []
        for t in range(events.size(1)):
            mem = BETA * state.mem + self.w_in(events[:, t]) + self.w_rec(state.spk)
            spk = spike(mem)
            state = NeuronState(mem - spk * THRESH, spk)
            logits.append(self.readout(state.mem))
        return torch.stack(logits, dim=1), state


def event_stream(n_chunks):
    labels = torch.randint(0, N_CLASSES, (BATCH, n_chunks)).repeat_interleave(CHUNK, dim=1)
    rates = 0.05 + 0.4 * (torch.arange(N_IN) % N_CLASSES == labels[..., None]).float()
    return torch.bernoulli(rates), labels


def main(n_chunks=5):
    torch.manual_seed(0)
    model = RecurrentLIF()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    events, labels = event_stream(n_chunks)
    state = NeuronState.zeros(BATCH)
    running = 0.0
    for k in range(n_chunks):
        state = state.detached()  # truncate BPTT here; the values carry on
        sl = slice(k * CHUNK, (k + 1) * CHUNK)
        logits, state = model(events[:, sl], state)
        loss = F.cross_entropy(logits.reshape(-1, N_CLASSES), labels[:, sl].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
        rate = state.spk.mean().item()
        print(f"chunk {k} loss {loss.item():.4f} firing rate {rate:.3f}")
    checksum = sum(p.detach().sum().item() for p in model.parameters())
    print(f"mean loss {running / n_chunks:.4f} param checksum {checksum:.6f}")
    return running / n_chunks


if __name__ == "__main__":
    main()
