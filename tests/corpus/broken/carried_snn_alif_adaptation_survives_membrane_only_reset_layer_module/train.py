"""Spiking classifier for tactile-sensor bursts: each sample is a 20-step spike train from
10 taxels, and the class is which taxel group fires in the second half. An ALIF hidden
layer (adaptive thresholds) feeds a leaky readout. The network state is reset before every
batch, as the snnTorch tutorials do."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from snn_layers import ALIFLayer, LeakyReadout

N_IN, N_HIDDEN, N_CLASSES, STEPS, BATCH = 10, 32, 3, 20, 16


class TactileSNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = ALIFLayer(N_IN, N_HIDDEN)
        self.readout = LeakyReadout(N_HIDDEN, N_CLASSES)

    def reset(self):
        self.hidden.reset()

    def forward(self, spikes_in):
        hidden_spikes = [self.hidden(spikes_in[:, t]) for t in range(spikes_in.size(1))]
        return self.readout(torch.stack(hidden_spikes, dim=1))


def tactile_batch(generator):
    labels = torch.randint(0, N_CLASSES, (BATCH,), generator=generator)
    rates = torch.full((BATCH, STEPS, N_IN), 0.1)
    for i, c in enumerate(labels.tolist()):
        rates[i, STEPS // 2:, 3 * c:3 * c + 3] = 0.7
    return torch.bernoulli(rates, generator=generator), labels


def train(n_batches=6):
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(1)
    net = TactileSNN()
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
    for step in range(n_batches):
        spikes, labels = tactile_batch(generator)
        net.reset()
        logits = net(spikes)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"batch {step} loss {loss.item():.4f} acc {acc:.2f}")


if __name__ == "__main__":
    train()
