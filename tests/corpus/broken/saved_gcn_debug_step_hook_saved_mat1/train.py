"""Two-layer GCN for node classification on a planted-partition graph (three communities,
dense intra-community links). An AggregationMonitor from debug.py was attached while
chasing exploding activations."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from debug import AggregationMonitor

torch.manual_seed(0)
N_NODES, N_FEATURES, N_CLASSES = 30, 8, 3


def planted_partition():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    prob = torch.where(same, torch.tensor(0.5), torch.tensor(0.05))
    adj = (torch.rand(N_NODES, N_NODES) < prob).float()
    adj = ((adj + adj.t()) > 0).float() + torch.eye(N_NODES)
    deg = adj.sum(1)
    adj_norm = adj / torch.sqrt(deg[:, None] * deg[None, :])
    features = F.one_hot(labels, N_FEATURES).float() + 0.8 * torch.randn(N_NODES, N_FEATURES)
    return adj_norm, features, labels


class GraphConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, adj):
        return self.lin(adj @ x)


class GCN(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.conv1 = GraphConv(N_FEATURES, hidden)
        self.conv2 = GraphConv(hidden, N_CLASSES)

    def forward(self, x, adj):
        return self.conv2(F.relu(self.conv1(x, adj)), adj)


adj, features, labels = planted_partition()
train_mask = torch.rand(N_NODES) < 0.5
model = GCN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)
monitor = AggregationMonitor({"conv1": model.conv1, "conv2": model.conv2}, optimizer)

for epoch in range(5):
    logits = model(features, adj)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(1) == labels)[~train_mask].float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} held-out acc {acc:.3f}")
