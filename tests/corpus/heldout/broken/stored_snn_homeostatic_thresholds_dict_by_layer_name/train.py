"""Spiking classifier for synthetic event-sensor bursts with intrinsic homeostasis: each layer's
firing threshold rises when the layer fires above a target rate and relaxes when it fires
below it. Thresholds are kept per layer name and carried from batch to batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HIDDEN, N_OUT, T_STEPS = 16, 24, 4, 6


def spike_fn(x):
    # Heaviside forward, sigmoid surrogate backward (straight-through trick)
    soft = torch.sigmoid(5.0 * x)
    return soft + ((x > 0).float() - soft).detach()


class Homeostasis:
    """Per-layer adaptive thresholds, updated from each batch's firing rate."""

    def __init__(self, layer_sizes, target_rate=0.1, gain=0.5):
        self.target_rate = target_rate
        self.gain = gain
        self.thresholds = {name: torch.ones(size) for name, size in layer_sizes.items()}

    def __getitem__(self, name):
        return self.thresholds[name]

    def update(self, firing_rates):
        for name, rate in firing_rates.items():
            self.thresholds[name] = (self.thresholds[name] + self.gain * (rate - self.target_rate)).clamp(min=0.2)


class SpikingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"hidden": nn.Linear(N_IN, N_HIDDEN), "readout": nn.Linear(N_HIDDEN, N_OUT)})
        self.beta = 0.8

    def forward(self, events, homeostasis):
        mem = {name: 0.0 for name in self.layers}
        spike_sums = {name: 0.0 for name in self.layers}
        out_mem = 0.0
        for t in range(T_STEPS):
            x = events[t]
            for name, layer in self.layers.items():
                mem[name] = self.beta * mem[name] + layer(x)
                spk = spike_fn(mem[name] - homeostasis[name])
                mem[name] = mem[name] * (1 - spk)
                spike_sums[name] = spike_sums[name] + spk
                x = spk
            out_mem = out_mem + mem["readout"]
        rates = {name: s.mean(dim=0) / T_STEPS for name, s in spike_sums.items()}
        return out_mem / T_STEPS, rates


def make_bursts(batch_size=10):
    labels = torch.randint(0, N_OUT, (batch_size,))
    channel_rate = torch.full((batch_size, N_IN), 0.05)
    for i, y in enumerate(labels):
        channel_rate[i, 4 * y:4 * y + 4] = 0.8
    events = (torch.rand(T_STEPS, batch_size, N_IN) < channel_rate).float()
    return events, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    net = SpikingNet()
    homeostasis = Homeostasis({"hidden": N_HIDDEN, "readout": N_OUT})
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    for step in range(6):
        events, labels = make_bursts()
        logits, rates = net(events, homeostasis)
        loss = F.cross_entropy(logits, labels)
        homeostasis.update(rates)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} hidden rate {rates['hidden'].mean().item():.3f} "
              f"thr {homeostasis['hidden'].mean().item():.3f}")
