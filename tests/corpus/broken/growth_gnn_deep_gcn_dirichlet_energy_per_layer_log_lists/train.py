"""A 4-layer GCN on a synthetic stochastic-block-model graph. Deep GCNs tend to over-smooth,
so every epoch the run logs the Dirichlet energy of each layer's node embeddings and prints
how fast it decays with depth."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import dirichlet_energy, smoothing_report

torch.manual_seed(0)
N_NODES, N_FEATS, HIDDEN, N_CLASSES = 60, 12, 16, 3


def sbm_graph(n=N_NODES, p_in=0.25, p_out=0.02):
    labels = torch.arange(n) % N_CLASSES
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    upper = torch.triu(torch.rand(n, n) < probs, diagonal=1)
    adj = (upper | upper.t()).float()
    feats = torch.randn(n, N_FEATS) + F.one_hot(labels, N_FEATS).float()
    return feats, adj, labels


def normalized_adjacency(adj):
    a_hat = adj + torch.eye(adj.shape[0])
    d_inv_sqrt = a_hat.sum(1).pow(-0.5)
    return d_inv_sqrt.unsqueeze(1) * a_hat * d_inv_sqrt.unsqueeze(0)


class DeepGCN(nn.Module):
    def __init__(self, depth=4):
        super().__init__()
        dims = [N_FEATS] + [HIDDEN] * (depth - 1)
        self.layers = nn.ModuleList(nn.Linear(i, HIDDEN) for i in dims)
        self.classifier = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, a_norm):
        hiddens = []
        for layer in self.layers:
            x = F.relu(a_norm @ layer(x))
            hiddens.append(x)
        return self.classifier(x), hiddens


def main(epochs=8):
    feats, adj, labels = sbm_graph()
    a_norm = normalized_adjacency(adj)
    edge_index = adj.nonzero().t()
    deg = adj.sum(1)
    train_mask = torch.rand(N_NODES) < 0.5
    model = DeepGCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    energy_log = defaultdict(list)
    for epoch in range(epochs):
        logits, hiddens = model(feats, a_norm)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for depth, h in enumerate(hiddens, start=1):
            energy_log[f"layer{depth}"].append(dirichlet_energy(h, edge_index, deg))
        acc = (logits.argmax(1)[~train_mask] == labels[~train_mask]).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f} energy/layer1: "
              f"{smoothing_report(energy_log)}")


if __name__ == "__main__":
    main()
