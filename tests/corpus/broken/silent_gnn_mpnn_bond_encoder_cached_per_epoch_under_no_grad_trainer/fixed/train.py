"""Molecular property regression with a small message-passing network (MPNN). Atoms carry
one-hot element features, bonds carry bond-type features. A Trainer class owns the model,
the optimizer and the batched molecules."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
N_ATOM_TYPES, N_BOND_TYPES, HIDDEN, ATOMS = 5, 3, 16, 6


def make_molecule():
    ring = torch.arange(ATOMS)
    src = torch.cat([ring, (ring + 1) % ATOMS, torch.tensor([0, 3])])
    dst = torch.cat([(ring + 1) % ATOMS, ring, torch.tensor([3, 0])])
    atoms = F.one_hot(torch.randint(0, N_ATOM_TYPES, (ATOMS,)), N_ATOM_TYPES).float()
    bonds = F.one_hot(torch.randint(0, N_BOND_TYPES, (len(src),)), N_BOND_TYPES).float()
    target = atoms[:, 1].sum() - 0.5 * bonds[:, 2].sum() + 0.1 * torch.randn(())
    return atoms, torch.stack([src, dst]), bonds, target


def collate(molecules):
    xs, edges, bonds, ys, graph_of = [], [], [], [], []
    for i, (atoms, edge_index, bond_feats, y) in enumerate(molecules):
        xs.append(atoms); edges.append(edge_index + i * ATOMS); bonds.append(bond_feats)
        ys.append(y); graph_of.append(torch.full((ATOMS,), i))
    return torch.cat(xs), torch.cat(edges, 1), torch.cat(bonds), torch.stack(ys), torch.cat(graph_of)


class MPNN(nn.Module):
    def __init__(self, steps=2):
        super().__init__()
        self.steps = steps
        self.atom_encoder = nn.Linear(N_ATOM_TYPES, HIDDEN)
        self.bond_encoder = nn.Sequential(nn.Linear(N_BOND_TYPES, HIDDEN), nn.ReLU(),
                                          nn.Linear(HIDDEN, HIDDEN))
        self.message = nn.Linear(2 * HIDDEN, HIDDEN)
        self.update = nn.GRUCell(HIDDEN, HIDDEN)
        self.readout = nn.Linear(HIDDEN, 1)

    def embed_bonds(self, bond_feats):
        return self.bond_encoder(bond_feats)

    def forward(self, x, edge_index, bond_emb, graph_of, n_graphs):
        h = self.atom_encoder(x)
        src, dst = edge_index
        for _ in range(self.steps):
            msg = F.relu(self.message(torch.cat([h[src], bond_emb], dim=1)))
            agg = torch.zeros_like(h).index_add(0, dst, msg)
            h = self.update(agg, h)
        pooled = torch.zeros(n_graphs, HIDDEN).index_add(0, graph_of, h)
        return self.readout(pooled).squeeze(1)


class Trainer:
    def __init__(self, batches, lr=5e-3):
        self.batches = batches
        self.model = MPNN()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def train_step(self, i):
        x, edge_index, bond_feats, y, graph_of = self.batches[i]
        bond_emb = self.model.embed_bonds(bond_feats)
        pred = self.model(x, edge_index, bond_emb, graph_of, len(y))
        loss = F.mse_loss(pred, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, epochs):
        for epoch in range(epochs):
            losses = [self.train_step(i) for i in range(len(self.batches))]
            print(f"epoch {epoch} mse {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    molecules = [make_molecule() for _ in range(12)]
    batches = [collate(molecules[i:i + 4]) for i in range(0, 12, 4)]
    trainer = Trainer(batches)
    trainer.fit(epochs=3)
    print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.4f}")
