"""Toy protein structure model with recycling across epochs.

A pair representation is built from the sequence, a structure head turns it into C-alpha
coordinates, and the loss compares predicted and true inter-residue distances (invariant
to rotation). Instead of recycling inside the forward (which costs extra passes), this
script recycles across epochs: the pair representation and coordinates predicted for a
chain are kept in a RecycleState and fed back the next time the same chain is trained.
"""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_AA, L, C, N_BINS = 20, 8, 12, 6


@dataclass
class RecycleState:
    pair: dict = field(default_factory=dict)
    coords: dict = field(default_factory=dict)

    def get(self, chain_id):
        return self.pair.get(chain_id), self.coords.get(chain_id)

    def remember(self, chain_id, pair, coords):
        self.pair[chain_id], self.coords[chain_id] = pair, coords


class ToyFold(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_i = nn.Linear(N_AA, C)
        self.embed_j = nn.Linear(N_AA, C)
        self.recycle_norm = nn.LayerNorm(C)
        self.recycle_pair = nn.Linear(C, C)
        self.recycle_dist = nn.Embedding(N_BINS, C)
        self.pair_mlp = nn.Sequential(nn.Linear(C, C), nn.ReLU(), nn.Linear(C, C))
        self.to_coords = nn.Linear(C, 3)

    def forward(self, seq, prev_pair=None, prev_coords=None):
        z = self.embed_i(seq)[:, None, :] + self.embed_j(seq)[None, :, :]    # (L, L, C)
        if prev_pair is not None:
            z = z + self.recycle_pair(self.recycle_norm(prev_pair))
            bins = torch.bucketize(torch.cdist(prev_coords, prev_coords),
                                   torch.linspace(2.0, 12.0, N_BINS - 1))
            z = z + self.recycle_dist(bins)
        z = z + self.pair_mlp(z)
        coords = self.to_coords(z.mean(dim=1)) * 4.0                         # (L, 3)
        return z, coords


def make_chains(n, gen):
    chains = {}
    for k in range(n):
        seq = F.one_hot(torch.randint(0, N_AA, (L,), generator=gen), N_AA).float()
        steps = F.normalize(torch.randn(L, 3, generator=gen), dim=-1) * 3.8
        chains[f"chain{k}"] = (seq, torch.cumsum(steps, dim=0))
    return chains


def distance_loss(coords, true_coords):
    return F.mse_loss(torch.cdist(coords, coords), torch.cdist(true_coords, true_coords))


def main():
    torch.manual_seed(0)
    chains = make_chains(3, torch.Generator().manual_seed(3))
    model = ToyFold()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    state = RecycleState()
    for epoch in range(3):
        total = 0.0
        for chain_id, (seq, true_coords) in chains.items():
            prev_pair, prev_coords = state.get(chain_id)
            pair, coords = model(seq, prev_pair, prev_coords)
            loss = distance_loss(coords, true_coords)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            state.remember(chain_id, pair.detach(), coords.detach())  # recycled inputs carry no gradient (AF2 stop-gradient)
            total += loss.item()
        print(f"epoch {epoch} mean distance mse {total / len(chains):.3f}")


if __name__ == "__main__":
    main()
