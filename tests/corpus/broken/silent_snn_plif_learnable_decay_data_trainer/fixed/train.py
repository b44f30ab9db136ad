"""Spiking classifier with parametric LIF neurons (learnable membrane time constant,
Fang et al. 2021) on rate-coded inputs, trained through a surrogate gradient by a small
Trainer class."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HID, N_OUT, T_STEPS, BATCH = 12, 24, 3, 8, 16


class ATanSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v >= 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (v,) = ctx.saved_tensors
        return grad_out / (1 + (math.pi * v) ** 2)


class PLIFNeuron(nn.Module):
    """v <- v + (x - v) / tau with 1 / tau = sigmoid(w) learned; soft reset by threshold."""

    def __init__(self, init_tau=2.0, threshold=1.0):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(-math.log(init_tau - 1.0)))
        self.threshold = threshold

    def forward(self, current_seq):
        inv_tau = torch.sigmoid(self.w)
        mem = torch.zeros_like(current_seq[0])
        spikes = []
        for x in current_seq:
            mem = mem + inv_tau * (x - mem)
            spk = ATanSpike.apply(mem - self.threshold)
            mem = mem - spk.detach() * self.threshold
            spikes.append(spk)
        return torch.stack(spikes)


class SpikingClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(N_IN, N_HID)
        nn.init.uniform_(self.fc1.weight, -0.2, 0.6)  # enough drive for the neurons to fire
        self.lif = PLIFNeuron()
        self.fc2 = nn.Linear(N_HID, N_OUT)

    def forward(self, spikes_in):  # (T, B, N_IN)
        hidden_spikes = self.lif(self.fc1(spikes_in))
        # non-spiking leaky readout: time-averaged output current
        return self.fc2(hidden_spikes).mean(0), hidden_spikes.mean()


class Trainer:
    def __init__(self, net, lr=5e-3):
        self.net = net
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)
        self.prototypes = torch.rand(N_OUT, N_IN)

    def batch(self):
        labels = torch.randint(0, N_OUT, (BATCH,))
        rates = self.prototypes[labels].expand(T_STEPS, BATCH, N_IN)
        return torch.bernoulli(rates), labels

    def train_step(self):
        spikes_in, labels = self.batch()
        logits, rate = self.net(spikes_in)
        loss = F.cross_entropy(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), rate.item()

    def fit(self, steps):
        for step in range(steps):
            loss, rate = self.train_step()
            tau = 1.0 / torch.sigmoid(self.net.lif.w).item()
            print(f"step {step}: loss {loss:.4f} firing rate {rate:.3f} tau {tau:.3f}")


torch.manual_seed(0)
net = SpikingClassifier()
Trainer(net).fit(steps=6)
