"""Graph-level property regression with a small GIN; graphs are processed one at a time
(dense adjacency) because they all have different sizes."""
import torch
import torch.nn as nn


class GINLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, h, adj):
        return self.mlp((1 + self.eps) * h + adj @ h)


class MoleculeGIN(nn.Module):
    def __init__(self, n_atom_types, dim=32, n_layers=3):
        super().__init__()
        self.embed = nn.Embedding(n_atom_types, dim)
        self.layers = nn.ModuleList(GINLayer(dim) for _ in range(n_layers))
        self.readout = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, atoms, adj):
        h = self.embed(atoms)
        for layer in self.layers:
            h = torch.relu(layer(h, adj))
        return self.readout(h.mean(dim=0)).squeeze(-1)


def random_molecule(n_atom_types, gen):
    n = int(torch.randint(5, 12, (1,), generator=gen))
    atoms = torch.randint(0, n_atom_types, (n,), generator=gen)
    upper = torch.triu(torch.rand(n, n, generator=gen) < 0.3, diagonal=1)
    chain = torch.diag(torch.ones(n - 1, dtype=torch.bool), 1)  # keep it connected
    adj = (upper | chain).float()
    adj = adj + adj.T
    weights = torch.linspace(0.5, 2.0, n_atom_types)
    target = weights[atoms].sum() / n + 0.1 * adj.sum() / n
    return atoms, adj, target
