"""Fragment-based molecular property regression: every molecule is a bag of chemical
fragments (rings, functional groups), each fragment's atom graph is encoded by a small
message-passing network, and the molecule embedding is the sum of its fragment embeddings.
Fragments recur across the whole data set, so fragment embeddings are memoised by name."""
from dataclasses import dataclass, field
from typing import Dict

import torch
import torch.nn as nn
import torch.nn.functional as F

ATOM_FEATS, HIDDEN = 8, 16
FRAGMENT_NAMES = ["benzene", "pyridine", "carboxyl", "amine", "hydroxyl", "methyl"]


@dataclass
class FragmentCache:
    table: Dict[str, torch.Tensor] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0


class MessagePassingEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(ATOM_FEATS, HIDDEN)
        self.message = nn.ModuleList([nn.Linear(HIDDEN, HIDDEN) for _ in range(2)])
        self.update = nn.ModuleList([nn.Linear(2 * HIDDEN, HIDDEN) for _ in range(2)])

    def forward(self, atoms, adjacency):
        h = F.relu(self.embed(atoms))
        for msg, upd in zip(self.message, self.update):
            incoming = adjacency @ msg(h) / adjacency.sum(1, keepdim=True).clamp(min=1)
            h = F.relu(upd(torch.cat([h, incoming], dim=-1)))
        return h.mean(dim=0)


class PropertyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fragment_encoder = MessagePassingEncoder()
        self.readout = nn.Sequential(nn.Linear(HIDDEN, HIDDEN), nn.SiLU(), nn.Linear(HIDDEN, 1))


def fragment_library(generator):
    library = {}
    for name in FRAGMENT_NAMES:
        n = int(torch.randint(3, 7, (1,), generator=generator))
        ring = torch.zeros(n, n)
        idx = torch.arange(n)
        ring[idx, (idx + 1) % n] = 1.0
        library[name] = (torch.randn(n, ATOM_FEATS, generator=generator), ring + ring.t())
    return library


def embed_fragment(model, cache, library, name):
    if name in cache.table:
        cache.hits += 1
        return cache.table[name]
    cache.misses += 1
    atoms, adjacency = library[name]
    cache.table[name] = model.fragment_encoder(atoms, adjacency)
    return cache.table[name]


def sample_molecules(n, generator):
    molecules, targets = [], []
    contribution = torch.linspace(-1.0, 1.5, len(FRAGMENT_NAMES))
    for _ in range(n):
        k = int(torch.randint(2, 5, (1,), generator=generator))
        picks = torch.randint(0, len(FRAGMENT_NAMES), (k,), generator=generator)
        molecules.append([FRAGMENT_NAMES[i] for i in picks.tolist()])
        targets.append(contribution[picks].sum())
    return molecules, torch.stack(targets)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    library = fragment_library(gen)
    model = PropertyModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    cache = FragmentCache()
    for step in range(6):
        molecules, targets = sample_molecules(4, gen)
        mol_emb = torch.stack([
            torch.stack([embed_fragment(model, cache, library, f) for f in frags]).sum(0)
            for frags in molecules])
        pred = model.readout(mol_emb).squeeze(-1)
        loss = F.mse_loss(pred, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        cache.table.clear()
        print(f"step {step} mse {loss.item():.4f} cache hits {cache.hits} misses {cache.misses}")


if __name__ == "__main__":
    main()
