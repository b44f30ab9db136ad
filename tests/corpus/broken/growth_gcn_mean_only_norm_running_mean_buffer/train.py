"""Node classification on a small community graph with a two-layer GCN whose layers use a
mean-only node normalisation (layers.py). Held-out accuracy is measured in eval mode,
where the normalisation uses its running mean."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import GCNLayer

torch.manual_seed(0)
N_NODES, IN_DIM, HIDDEN, N_CLASSES = 40, 8, 16, 4


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNLayer(IN_DIM, HIDDEN)
        self.conv2 = GCNLayer(HIDDEN, HIDDEN)
        self.classifier = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, adj_norm, x):
        h = F.relu(self.conv1(adj_norm, x))
        h = F.relu(self.conv2(adj_norm, h))
        return self.classifier(h)


def community_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    p = torch.where(same, torch.tensor(0.3), torch.tensor(0.03))
    adj = (torch.rand(N_NODES, N_NODES) < p).float()
    adj = ((adj + adj.t()) > 0).float() + torch.eye(N_NODES)
    deg_inv_sqrt = adj.sum(dim=1).pow(-0.5)
    adj_norm = deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]
    x = F.one_hot(labels, IN_DIM).float() + 0.8 * torch.randn(N_NODES, IN_DIM)
    return adj_norm, x, labels


adj_norm, x, labels = community_graph()
train_mask = torch.rand(N_NODES) < 0.5
model = GCN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
for epoch in range(8):
    model.train()
    loss = F.cross_entropy(model(adj_norm, x)[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        acc = (model(adj_norm, x).argmax(1) == labels)[~train_mask].float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} held-out acc {acc:.2f}")
