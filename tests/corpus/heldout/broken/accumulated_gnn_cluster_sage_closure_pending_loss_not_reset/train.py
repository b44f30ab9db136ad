"""Cluster-GCN style training of a GraphSAGE node classifier: the graph is split into
partitions, each partition is one forward pass, and gradients are accumulated over a few
partitions before each optimizer step. The step logic lives in a closure built by
make_train_step()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEATS, N_CLASSES, N_PARTS, ACCUM = 48, 10, 3, 8, 2


class SAGELayer(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.lin_self = nn.Linear(dim_in, dim_out)
        self.lin_neigh = nn.Linear(dim_in, dim_out, bias=False)

    def forward(self, x, adj):
        deg = adj.sum(1, keepdim=True).clamp(min=1)
        return self.lin_self(x) + self.lin_neigh(adj @ x / deg)


class GraphSAGE(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.conv1 = SAGELayer(N_FEATS, hidden)
        self.conv2 = SAGELayer(hidden, N_CLASSES)

    def forward(self, x, adj):
        return self.conv2(F.relu(self.conv1(x, adj)), adj)


def make_train_step(model, optimizer, accum_every):
    pending = torch.zeros(())
    calls = 0

    def train_step(x, adj, y):
        nonlocal pending, calls
        loss = F.cross_entropy(model(x, adj), y)
        pending = pending + loss / accum_every
        calls += 1
        if calls % accum_every == 0:
            optimizer.zero_grad()
            pending.backward()
            optimizer.step()
        return loss.item()

    return train_step


def planted_partition_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    adj = (torch.rand(N_NODES, N_NODES) < torch.where(same, 0.3, 0.04)).float()
    adj = torch.triu(adj, diagonal=1)
    feats = torch.randn(N_NODES, N_FEATS) + F.one_hot(labels, N_FEATS).float() * 1.5
    return feats, adj + adj.t(), labels


torch.manual_seed(0)
feats, adj, labels = planted_partition_graph()
parts = torch.randperm(N_NODES).chunk(N_PARTS)
model = GraphSAGE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
train_step = make_train_step(model, optimizer, ACCUM)

for i, nodes in enumerate(parts):
    sub_adj = adj[nodes][:, nodes]
    loss = train_step(feats[nodes], sub_adj, labels[nodes])
    print(f"partition {i}: {len(nodes)} nodes, {int(sub_adj.sum().item()) // 2} edges, loss {loss:.4f}")

with torch.no_grad():
    acc = (model(feats, adj).argmax(1) == labels).float().mean().item()
print(f"full-graph accuracy {acc:.3f}")
