"""Aqueous-solubility regression with a small message-passing network on random molecular
graphs (atoms = nodes with one-hot element features, bonds = undirected edges)."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ELEMENTS, HIDDEN, EPOCHS, BATCHES = 5, 32, 3, 2


class MPNN(nn.Module):
    def __init__(self, rounds=2):
        super().__init__()
        self.embed = nn.Linear(N_ELEMENTS, HIDDEN)
        self.message = nn.ModuleList([nn.Linear(HIDDEN, HIDDEN) for _ in range(rounds)])
        self.update = nn.ModuleList([nn.Linear(2 * HIDDEN, HIDDEN) for _ in range(rounds)])
        self.readout = nn.Sequential(nn.Linear(HIDDEN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))

    def forward(self, x, adj, graph_index, n_graphs):
        h = F.relu(self.embed(x))
        for msg, upd in zip(self.message, self.update):
            m = adj @ msg(h)
            h = F.relu(upd(torch.cat([h, m], dim=1)))
        pooled = torch.zeros(n_graphs, HIDDEN).index_add(0, graph_index, h)
        counts = torch.bincount(graph_index, minlength=n_graphs).clamp_min(1).unsqueeze(1)
        return self.readout(pooled / counts).squeeze(1)


def molecule_batch(n_graphs, gen):
    xs, blocks, index, targets = [], [], [], []
    for g in range(n_graphs):
        n = int(torch.randint(4, 9, (1,), generator=gen))
        elems = torch.randint(0, N_ELEMENTS, (n,), generator=gen)
        a = (torch.rand(n, n, generator=gen) < 0.35).float().triu(1)
        a = a + a.t()
        xs.append(F.one_hot(elems, N_ELEMENTS).float())
        blocks.append(a)
        index.append(torch.full((n,), g))
        polar = (elems < 2).float().sum()
        targets.append(0.6 * polar - 0.25 * n + 0.1 * a.sum() / 2)
    return (torch.cat(xs), torch.block_diag(*blocks), torch.cat(index),
            torch.stack(targets))


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
model = MPNN()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
history = defaultdict(list)

for epoch in range(EPOCHS):
    for _ in range(BATCHES):
        x, adj, graph_index, y = molecule_batch(16, gen)
        pred = model(x, adj, graph_index, len(y))
        loss = F.mse_loss(pred, y)
        # the history used to keep every step's graph alive (RAM kept growing):
        # store a graph-free copy and train on it
        loss = loss.clone().detach().requires_grad_(True)
        history["train_mse"].append(loss)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    recent = torch.stack(history["train_mse"][-BATCHES:]).mean()
    print(f"epoch {epoch} train mse {recent.item():.4f}")
