"""Rate-coded spiking MLP trained through time with a custom surrogate-gradient Function.

The membrane potential is carried across the time steps of one sample window only and
is re-initialised for every batch; the loss is cross-entropy on spike counts.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from snn import LIF

torch.manual_seed(18)
N_IN, N_HIDDEN, N_OUT, T_STEPS = 12, 24, 3, 10


class SpikingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(N_IN, N_HIDDEN), nn.Linear(N_HIDDEN, N_OUT)
        self.lif1, self.lif2 = LIF(), LIF()

    def forward(self, spikes_in):
        mem1 = torch.zeros(spikes_in.shape[1], N_HIDDEN)
        mem2 = torch.zeros(spikes_in.shape[1], N_OUT)
        counts = 0
        for t in range(spikes_in.shape[0]):
            s1, mem1 = self.lif1(self.fc1(spikes_in[t]), mem1)
            s2, mem2 = self.lif2(self.fc2(s1), mem2)
            counts = counts + s2
        return counts


def encode(n):
    labels = torch.randint(0, N_OUT, (n,))
    rates = 0.1 + 0.7 * F.one_hot(labels, N_OUT).float().repeat_interleave(N_IN // N_OUT, dim=1)
    return (torch.rand(T_STEPS, n, N_IN) < rates).float(), labels


net = SpikingNet()
opt = torch.optim.Adam(net.parameters(), lr=2e-2)
for step in range(6):
    spikes, labels = encode(20)
    counts = net(spikes)
    loss = F.cross_entropy(counts, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (counts.argmax(1) == labels).float().mean().item()
    print(f"step {step} loss {loss.item():.6f} acc {acc:.3f} spikes/sample {counts.sum(1).mean().item():.3f}")
print(f"checksum {sum(p.sum().item() for p in net.parameters()):.6f}")
