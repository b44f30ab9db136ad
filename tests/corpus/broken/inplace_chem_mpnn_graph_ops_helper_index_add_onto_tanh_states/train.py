"""Message-passing network for aqueous solubility (logS) on a toy set of random molecules.
Each layer computes a self-update of every atom, then adds the bond-gated messages from
its neighbours onto it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from graph_ops import graph_mean, scatter_sum_

torch.manual_seed(0)
ATOM_TYPES, BOND_TYPES, HIDDEN = 6, 3, 32


class MPLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.self_update = nn.Linear(dim, dim)
        self.message = nn.Linear(dim, dim)
        self.bond_gate = nn.Embedding(BOND_TYPES, dim)

    def forward(self, h, src, dst, bond):
        out = torch.tanh(self.self_update(h))
        msgs = self.message(h)[src] * torch.sigmoid(self.bond_gate(bond))
        return scatter_sum_(out, dst, msgs)


class SolubilityMPNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.atom_embed = nn.Embedding(ATOM_TYPES, HIDDEN)
        self.layers = nn.ModuleList([MPLayer(HIDDEN) for _ in range(2)])
        self.readout = nn.Sequential(nn.Linear(HIDDEN, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, atoms, src, dst, bond, batch, num_graphs):
        h = self.atom_embed(atoms)
        for layer in self.layers:
            h = layer(h, src, dst, bond)
        return self.readout(graph_mean(h, batch, num_graphs)).squeeze(-1)


def random_molecules(num_graphs):
    atoms, src, dst, bond, batch, logs = [], [], [], [], [], []
    offset = 0
    for g in range(num_graphs):
        n = int(torch.randint(4, 9, ()))
        a = torch.randint(0, ATOM_TYPES, (n,))
        chain = torch.arange(n - 1)
        s = torch.cat([chain, chain + 1]) + offset
        d = torch.cat([chain + 1, chain]) + offset
        b = torch.randint(0, BOND_TYPES, (n - 1,)).repeat(2)
        atoms.append(a); src.append(s); dst.append(d); bond.append(b)
        batch.append(torch.full((n,), g))
        logs.append(-0.3 * (a == 0).sum() + 0.2 * (a == 3).sum() - 0.1 * n)
        offset += n
    return (torch.cat(atoms), torch.cat(src), torch.cat(dst), torch.cat(bond),
            torch.cat(batch), torch.stack(logs).float())


def train(epochs=4):
    model = SolubilityMPNN()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    data = [random_molecules(8) for _ in range(2)]
    for epoch in range(epochs):
        total = 0.0
        for atoms, src, dst, bond, batch, logs in data:
            pred = model(atoms, src, dst, bond, batch, 8)
            loss = F.mse_loss(pred, logs)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} mse {total / len(data):.4f}")


if __name__ == "__main__":
    train()
