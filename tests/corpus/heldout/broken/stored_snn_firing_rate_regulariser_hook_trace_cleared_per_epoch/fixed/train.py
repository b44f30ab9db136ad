"""Spiking keyword spotter on rate-coded audio features: two LIF layers with a surrogate
gradient, plus an activity regulariser that keeps the hidden firing rates near 10%. Rates are
gathered by a forward-hook monitor (monitors.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from monitors import SpikeRateMonitor

torch.manual_seed(0)
N_BANDS, N_HID, N_WORDS, T, BATCH = 16, 32, 4, 10, 16
TARGET_RATE, RATE_WEIGHT = 0.1, 2.0


class SurrogateSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, grad):
        (v,) = ctx.saved_tensors
        return grad / (1 + 8 * v.abs()) ** 2


class LIF(nn.Module):
    def __init__(self, n_in, n_out, beta=0.9):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.beta = beta

    def forward(self, x, mem):
        mem = self.beta * mem + self.fc(x)
        spk = SurrogateSpike.apply(mem - 1.0)
        return spk, mem - spk


class SpikingKWS(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = LIF(N_BANDS, N_HID)
        self.readout = LIF(N_HID, N_WORDS)

    def forward(self, frames):
        mem1 = torch.zeros(frames.shape[1], N_HID)
        mem2 = torch.zeros(frames.shape[1], N_WORDS)
        counts = 0
        for t in range(frames.shape[0]):
            spk1, mem1 = self.hidden(frames[t], mem1)
            spk2, mem2 = self.readout(spk1, mem2)
            counts = counts + mem2
        return counts / frames.shape[0]


def keyword_batch(profiles):
    words = torch.randint(0, N_WORDS, (BATCH,))
    return (torch.rand(T, BATCH, N_BANDS) < profiles[words]).float(), words


model = SpikingKWS()
monitor = SpikeRateMonitor(model.hidden)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
profiles = torch.rand(N_WORDS, N_BANDS) * 0.6

for epoch in range(2):
    for batch in range(3):
        frames, words = keyword_batch(profiles)
        monitor.reset()
        logits = model(frames)
        rate_penalty = (monitor.rate() - TARGET_RATE).pow(2).mean()
        loss = F.cross_entropy(logits, words) + RATE_WEIGHT * rate_penalty
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} batch {batch}  loss {loss.item():.4f}  "
              f"hidden rate {monitor.rate().mean().item():.3f}")
