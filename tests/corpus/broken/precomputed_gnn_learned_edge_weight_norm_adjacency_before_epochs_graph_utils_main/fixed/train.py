"""Two-layer GCN for node classification that also learns how much to trust each edge."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from graph_utils import normalized_adjacency, ring_with_chords

N_NODES, N_FEAT, N_CLASSES = 18, 8, 3


class EdgeGCN(nn.Module):
    def __init__(self, n_edges):
        super().__init__()
        self.edge_logits = nn.Parameter(torch.zeros(n_edges))
        self.lin1 = nn.Linear(N_FEAT, 16)
        self.lin2 = nn.Linear(16, N_CLASSES)

    def forward(self, x, adj):
        h = F.relu(adj @ self.lin1(x))
        return adj @ self.lin2(h)


def main():
    torch.manual_seed(0)
    edge_index = ring_with_chords(N_NODES)
    labels = torch.arange(N_NODES) % N_CLASSES
    x = F.one_hot(labels, N_FEAT).float() + 0.5 * torch.randn(N_NODES, N_FEAT)
    train_mask = torch.arange(N_NODES) % 2 == 0

    model = EdgeGCN(edge_index.shape[1])
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)

    for epoch in range(6):
        adj = normalized_adjacency(edge_index, model.edge_logits, N_NODES)
        logits = model(x, adj)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1)[~train_mask] == labels[~train_mask]).float().mean()
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc.item():.3f}")


if __name__ == "__main__":
    main()
