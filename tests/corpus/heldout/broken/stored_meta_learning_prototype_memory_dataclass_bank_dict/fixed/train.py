"""Few-shot classification with prototypical networks plus a global
prototype memory: every class seen in earlier episodes keeps a running
prototype, and the current episode's prototypes are pulled towards it
(a consistency regulariser against episode-to-episode drift)."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, N_WAY, K_SHOT, N_QUERY, DIM = 5, 3, 3, 4, 12


@dataclass
class PrototypeMemory:
    momentum: float = 0.8
    bank: dict = field(default_factory=dict)

    def consistency(self, labels, protos):
        terms = [F.mse_loss(p, self.bank[c]) for c, p in zip(labels, protos) if c in self.bank]
        return torch.stack(terms).mean() if terms else protos.sum() * 0.0

    def update(self, labels, protos):
        for label, proto in zip(labels, protos):
            old = self.bank.get(label, proto)
            self.bank[label] = (self.momentum * old + (1 - self.momentum) * proto).detach()


class Embedder(nn.Module):
    def __init__(self, d_in=DIM, d_hidden=32, d_out=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(),
                                 nn.Linear(d_hidden, d_out))

    def forward(self, x):
        return self.net(x)


def sample_episode(centers, g):
    labels = torch.randperm(N_CLASSES, generator=g)[:N_WAY].tolist()
    support = torch.stack([centers[c] + 0.3 * torch.randn(K_SHOT, DIM, generator=g) for c in labels])
    query = torch.stack([centers[c] + 0.3 * torch.randn(N_QUERY, DIM, generator=g) for c in labels])
    return labels, support, query.view(-1, DIM)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(5)
    centers = torch.randn(N_CLASSES, DIM, generator=g)
    model = Embedder()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    memory = PrototypeMemory()
    target = torch.arange(N_WAY).repeat_interleave(N_QUERY)

    for episode in range(8):
        labels, support, query = sample_episode(centers, g)
        protos = model(support).mean(1)
        logits = -torch.cdist(model(query), protos)
        loss = F.cross_entropy(logits, target) + 0.5 * memory.consistency(labels, protos)

        opt.zero_grad()
        loss.backward()
        opt.step()
        memory.update(labels, protos)
        acc = (logits.argmax(1) == target).float().mean().item()
        print(f"episode {episode} classes {labels} loss {loss.item():.4f} acc {acc:.2f} "
              f"memory {len(memory.bank)}")


if __name__ == "__main__":
    main()
