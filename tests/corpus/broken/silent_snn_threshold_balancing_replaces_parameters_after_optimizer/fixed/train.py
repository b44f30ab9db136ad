"""Spiking MLP on rate-coded prototype patterns (4 classes): build the model and its
optimizer, balance the thresholds on one calibration batch, then train with a
spike-count cross-entropy."""
import torch
import torch.nn.functional as F

from calibration import balance_thresholds, firing_report
from snn import SpikingMLP

N_IN, N_HIDDEN, N_CLASSES, T_STEPS, BATCH = 20, 32, 4, 10, 32


def build(calib_spikes, lr=5e-3):
    net = balance_thresholds(SpikingMLP(N_IN, N_HIDDEN, N_CLASSES), calib_spikes)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    return net, optimizer


def rate_coded_batch(prototypes, g):
    labels = torch.randint(0, N_CLASSES, (BATCH,), generator=g)
    rates = prototypes[labels].expand(T_STEPS, BATCH, N_IN)
    return torch.bernoulli(rates, generator=g), labels


def main(steps=6):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    prototypes = 0.8 * torch.rand(N_CLASSES, N_IN, generator=g)
    calib, _ = rate_coded_batch(prototypes, g)
    net, optimizer = build(calib)
    print("firing rates after calibration", firing_report(net, calib))
    for step in range(steps):
        spikes, labels = rate_coded_batch(prototypes, g)
        counts, rate = net(spikes)
        loss = F.cross_entropy(counts, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (counts.argmax(1) == labels).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.2f} hidden rate {rate.item():.3f}")


if __name__ == "__main__":
    main()
