"""Spiking MLP on rate-coded input patterns: a hidden layer of LIF neurons (reset by
subtraction) feeds a non-spiking leaky readout whose membrane potential, summed over time, is
the class score. Trained with BPTT over 16 time steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HIDDEN, N_CLASSES, T_STEPS = 30, 48, 3, 16


class SpikingMLP(nn.Module):
    def __init__(self, beta=0.9, threshold=1.0):
        super().__init__()
        self.fc1 = nn.Linear(N_IN, N_HIDDEN)
        self.fc2 = nn.Linear(N_HIDDEN, N_CLASSES)
        self.beta, self.threshold = beta, threshold

    def forward(self, spikes_in):  # (T, B, N_IN)
        batch = spikes_in.shape[1]
        mem1 = torch.zeros(batch, N_HIDDEN)
        spk1 = torch.zeros(batch, N_HIDDEN)
        mem_out = torch.zeros(batch, N_CLASSES)
        scores, hidden_rate = 0, 0
        for t in range(spikes_in.shape[0]):
            mem1 = self.beta * mem1 + self.fc1(spikes_in[t]) - spk1 * self.threshold
            spk1 = (mem1 > self.threshold).float()
            mem_out = self.beta * mem_out + self.fc2(spk1)
            scores = scores + mem_out
            hidden_rate = hidden_rate + spk1.mean()
        return scores / spikes_in.shape[0], hidden_rate / spikes_in.shape[0]


def rate_coded_batch(batch_size=32):
    labels = torch.randint(0, N_CLASSES, (batch_size,))
    rates = torch.full((batch_size, N_IN), 0.05)
    for k in range(N_CLASSES):
        rates[labels == k, k * 10:(k + 1) * 10] = 0.6
    return torch.bernoulli(rates.expand(T_STEPS, -1, -1)), labels


def run_epoch(net, optimizer, n_batches):
    for _ in range(n_batches):
        spikes, labels = rate_coded_batch()
        scores, rate = net(spikes)
        loss = F.cross_entropy(scores, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (scores.argmax(1) == labels).float().mean().item()
    return loss.item(), acc, rate.item()


torch.manual_seed(0)
net = SpikingMLP()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
for epoch in range(3):
    loss, acc, rate = run_epoch(net, optimizer, n_batches=2)
    print(f"epoch {epoch} loss {loss:.4f} acc {acc:.3f} hidden firing rate {rate:.3f}")
