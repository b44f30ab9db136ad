"""Spiking network for event-camera gesture clips (DVS-style ON/OFF event counts per time bin).

Two layers of leaky integrate-and-fire neurons with a fast-sigmoid surrogate gradient; the
membrane potentials are the recurrent state and are handed from one truncated-BPTT split to
the next by the framework. The readout is a rate code: the class with most output spikes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from minilightning import LitModule, Trainer

N_PIXELS, HIDDEN, N_GESTURES, TIME_BINS = 32, 48, 3, 12


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem):
        ctx.save_for_backward(mem)
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (mem,) = ctx.saved_tensors
        return grad_out / (1.0 + 10.0 * mem.abs()) ** 2


class GestureSNN(LitModule):
    truncated_bptt_steps = 4

    def __init__(self, beta=0.85, threshold=1.0):
        super().__init__()
        self.fc1 = nn.Linear(2 * N_PIXELS, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, N_GESTURES)
        self.beta, self.threshold = beta, threshold

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=5e-3)

    def lif(self, current, mem):
        mem = self.beta * mem + current
        spk = SpikeFn.apply(mem - self.threshold)
        return spk, mem - spk * self.threshold

    def training_step(self, batch, batch_idx, hiddens):
        events, labels = batch
        n = events.size(0)
        if hiddens is None:
            hiddens = (torch.zeros(n, HIDDEN), torch.zeros(n, N_GESTURES))
        mem1, mem2 = hiddens
        out_spikes = []
        for t in range(events.size(1)):
            spk1, mem1 = self.lif(self.fc1(events[:, t]), mem1)
            spk2, mem2 = self.lif(self.fc2(spk1), mem2)
            out_spikes.append(spk2 + torch.sigmoid(mem2))
        rates = torch.stack(out_spikes).mean(0)
        loss = F.cross_entropy(rates * 5.0, labels)
        return {"loss": loss, "hiddens": (mem1, mem2)}


def synthetic_dvs_batches(n_batches, batch, generator):
    batches = []
    for _ in range(n_batches):
        labels = torch.randint(0, N_GESTURES, (batch,), generator=generator)
        rate = torch.full((batch, TIME_BINS, 2 * N_PIXELS), 0.05)
        for g in range(N_GESTURES):
            sel = labels == g
            rate[sel, :, g * 10:(g + 1) * 10] = 0.6
        events = torch.bernoulli(rate, generator=generator)
        batches.append((events, labels))
    return batches


def main():
    torch.manual_seed(0)
    batches = synthetic_dvs_batches(2, 6, torch.Generator().manual_seed(0))
    Trainer(max_epochs=1).fit(GestureSNN(), batches)


if __name__ == "__main__":
    main()
