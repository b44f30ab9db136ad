"""Two-layer spiking classifier on rate-coded synthetic patterns: each class is a noisy
prototype of input firing rates; the prediction is the output neuron that spikes most."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from neurons import LeakyIntegrateFire


@dataclass
class SNNConfig:
    inputs: int = 40
    hidden: int = 64
    classes: int = 4
    time_steps: int = 16
    batch: int = 32
    lr: float = 1e-2


class SpikingClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc1 = nn.Linear(cfg.inputs, cfg.hidden)
        self.lif1 = LeakyIntegrateFire(beta=0.9)
        self.fc2 = nn.Linear(cfg.hidden, cfg.classes)
        self.lif2 = LeakyIntegrateFire(beta=0.8)
        self.cfg = cfg

    def forward(self, spikes):
        mem1 = torch.zeros(spikes.shape[1], self.cfg.hidden)
        mem2 = torch.zeros(spikes.shape[1], self.cfg.classes)
        counts = 0
        for t in range(spikes.shape[0]):
            spk1, mem1 = self.lif1(self.fc1(spikes[t]), mem1)
            spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
            counts = counts + spk2
        return counts


def rate_coded_batch(cfg, prototypes, gen):
    labels = torch.randint(0, cfg.classes, (cfg.batch,), generator=gen)
    rates = (prototypes[labels] + 0.1 * torch.rand(cfg.batch, cfg.inputs, generator=gen)).clamp(0, 1)
    spikes = (torch.rand(cfg.time_steps, cfg.batch, cfg.inputs, generator=gen) < rates).float()
    return spikes, labels


def run(cfg=SNNConfig(), steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    prototypes = 0.6 * torch.rand(cfg.classes, cfg.inputs, generator=gen)
    model = SpikingClassifier(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for step in range(steps):
        spikes, labels = rate_coded_batch(cfg, prototypes, gen)
        counts = model(spikes)
        loss = F.cross_entropy(counts, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (counts.argmax(1) == labels).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.3f} mean count {counts.mean().item():.2f}")
    return loss.item()


if __name__ == "__main__":
    run()
