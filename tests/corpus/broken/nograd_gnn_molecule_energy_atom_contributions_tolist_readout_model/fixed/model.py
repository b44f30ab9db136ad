"""Message-passing network for molecular energies: every atom gets an energy contribution
and the molecule's energy is the sum over its atoms (SchNet-style additive readout)."""
import torch
import torch.nn as nn


class MPLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(2 * dim + 1, dim)
        self.upd = nn.GRUCell(dim, dim)

    def forward(self, h, edge_index, dist):
        src, dst = edge_index
        m = torch.tanh(self.msg(torch.cat([h[src], h[dst], dist.unsqueeze(1)], dim=1)))
        agg = torch.zeros_like(h).index_add(0, dst, m)
        return self.upd(agg, h)


class AtomEnergyNet(nn.Module):
    def __init__(self, n_elements=5, dim=24, n_layers=3):
        super().__init__()
        self.embed = nn.Embedding(n_elements, dim)
        self.layers = nn.ModuleList(MPLayer(dim) for _ in range(n_layers))
        self.atom_out = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, 1))

    def forward(self, z, edge_index, dist, batch, num_graphs):
        h = self.embed(z)
        for layer in self.layers:
            h = layer(h, edge_index, dist)
        atom_energy = self.atom_out(h).squeeze(1)
        energy = atom_energy.new_zeros(num_graphs).index_add(0, batch, atom_energy)
        return energy
