"""Molecular property regression with a small message-passing network. Molecules are kept
as dataclasses pointing into one shared atom-feature table; mini-batches of molecules are
packed into a MoleculeBatch (atom ids, bonds, graph membership). Atom features are one-hot
element plus degree; the target is a synthetic polarity score."""
from dataclasses import dataclass
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F

ELEMENTS = ["C", "N", "O", "F"]
N_FEATS, HIDDEN, N_MOLS, MOLS_PER_BATCH, EPOCHS = len(ELEMENTS) + 1, 24, 12, 4, 2


@dataclass
class Molecule:
    first_atom: int
    n_atoms: int
    bonds: torch.Tensor
    polarity: float


@dataclass
class MoleculeBatch:
    atom_ids: torch.Tensor
    src: torch.Tensor
    dst: torch.Tensor
    graph_ids: torch.Tensor
    y: torch.Tensor


class MPNN(nn.Module):
    def __init__(self, rounds=2):
        super().__init__()
        self.atom_encoder = nn.Sequential(nn.Linear(N_FEATS, HIDDEN), nn.ReLU())
        self.message = nn.ModuleList(nn.Linear(HIDDEN, HIDDEN) for _ in range(rounds))
        self.update = nn.ModuleList(nn.Linear(2 * HIDDEN, HIDDEN) for _ in range(rounds))
        self.readout = nn.Sequential(nn.Linear(HIDDEN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))

    def forward(self, h, batch: MoleculeBatch, n_graphs):
        for msg, upd in zip(self.message, self.update):
            agg = torch.zeros_like(h).index_add(0, batch.dst, msg(h)[batch.src])
            h = F.relu(upd(torch.cat([h, agg], 1)))
        pooled = torch.zeros(n_graphs, HIDDEN).index_add(0, batch.graph_ids, h)
        return self.readout(pooled).squeeze(1)


def make_dataset():
    elements, molecules, start = [], [], 0
    for _ in range(N_MOLS):
        n = int(torch.randint(4, 8, ()))
        elem = torch.randint(0, len(ELEMENTS), (n,))
        parent = torch.stack([torch.randint(0, i, ()) for i in range(1, n)])
        child = torch.arange(1, n)
        bonds = torch.cat([torch.stack([parent, child]), torch.stack([child, parent])], 1)
        counts = torch.bincount(elem, minlength=len(ELEMENTS)).float()
        polarity = float(counts[1] + 2 * counts[2] + 1.5 * counts[3] - 0.5 * counts[0]) / n
        molecules.append(Molecule(start, n, bonds, polarity))
        elements.append(elem)
        start += n
    elem = torch.cat(elements)
    degree = torch.zeros(start)
    for m in molecules:
        degree[m.first_atom:m.first_atom + m.n_atoms] += torch.bincount(m.bonds[0], minlength=m.n_atoms)
    return torch.cat([F.one_hot(elem, len(ELEMENTS)).float(), degree[:, None] / 4], 1), molecules


def collate(mols: List[Molecule]) -> MoleculeBatch:
    atom_ids, src, dst, graph_ids, offset = [], [], [], [], 0
    for g, m in enumerate(mols):
        atom_ids.append(torch.arange(m.first_atom, m.first_atom + m.n_atoms))
        src.append(m.bonds[0] + offset)
        dst.append(m.bonds[1] + offset)
        graph_ids.append(torch.full((m.n_atoms,), g))
        offset += m.n_atoms
    return MoleculeBatch(torch.cat(atom_ids), torch.cat(src), torch.cat(dst),
                         torch.cat(graph_ids), torch.tensor([m.polarity for m in mols]))


def main():
    torch.manual_seed(0)
    atom_feats, molecules = make_dataset()
    model = MPNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(EPOCHS):
        order = torch.randperm(N_MOLS).tolist()
        for start in range(0, N_MOLS, MOLS_PER_BATCH):
            mols = [molecules[i] for i in order[start:start + MOLS_PER_BATCH]]
            batch = collate(mols)
            atom_h = model.atom_encoder(atom_feats[batch.atom_ids])
            pred = model(atom_h, batch, len(mols))
            loss = F.mse_loss(pred, batch.y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} mse {loss.item():.4f}")


if __name__ == "__main__":
    main()
