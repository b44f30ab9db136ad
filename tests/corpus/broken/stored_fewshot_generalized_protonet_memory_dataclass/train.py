"""Generalized few-shot classification with a prototypical network. Each episode samples
N_WAY classes with K_SHOT support examples; queries are classified against this episode's
prototypes and against the prototypes remembered from earlier episodes for every class that
is not in this episode, so the encoder also learns to keep new classes apart from old ones."""
from dataclasses import dataclass, field
from typing import Dict

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, FEAT, EMB, N_WAY, K_SHOT, N_QUERY = 10, 12, 16, 3, 2, 3


@dataclass
class PrototypeMemory:
    protos: Dict[int, torch.Tensor] = field(default_factory=dict)
    times_seen: Dict[int, int] = field(default_factory=dict)

    def others(self, exclude):
        keys = sorted(k for k in self.protos if k not in exclude)
        if not keys:
            return keys, torch.zeros(0, EMB)
        return keys, torch.stack([self.protos[k] for k in keys])


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(FEAT, 32), nn.ReLU(), nn.Linear(32, EMB))

    def forward(self, x):
        return self.net(x)


def sample_episode(centers):
    classes = torch.randperm(N_CLASSES)[:N_WAY]
    support = centers[classes].repeat_interleave(K_SHOT, 0)
    query = centers[classes].repeat_interleave(N_QUERY, 0)
    support, query = support + 1.5 * torch.randn_like(support), query + 1.5 * torch.randn_like(query)
    labels = torch.arange(N_WAY).repeat_interleave(N_QUERY)
    return classes, support, query, labels


def episode_loss(encoder, memory, classes, support, query, labels):
    protos = encoder(support).view(N_WAY, K_SHOT, EMB).mean(1)
    old_keys, old_protos = memory.others(set(classes.tolist()))
    candidates = torch.cat([protos, old_protos])
    logits = -torch.cdist(encoder(query), candidates).pow(2)
    acc = (logits.argmax(1) == labels).float().mean().item()
    return F.cross_entropy(logits, labels), protos, len(old_keys), acc


def train(n_episodes=6):
    torch.manual_seed(0)
    centers = 2.0 * torch.randn(N_CLASSES, FEAT)
    encoder = Encoder()
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-2)
    memory = PrototypeMemory()
    for ep in range(n_episodes):
        classes, support, query, labels = sample_episode(centers)
        loss, protos, n_old, acc = episode_loss(encoder, memory, classes, support, query, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for c, p in zip(classes.tolist(), protos):
            memory.protos[c] = p
            memory.times_seen[c] = memory.times_seen.get(c, 0) + 1
        print(f"episode {ep}: classes {classes.tolist()} + {n_old} remembered, "
              f"loss {loss.item():.4f} acc {acc:.2f}")
    return memory


if __name__ == "__main__":
    memory = train()
    print(f"remembered classes: {sorted(memory.protos)}")
