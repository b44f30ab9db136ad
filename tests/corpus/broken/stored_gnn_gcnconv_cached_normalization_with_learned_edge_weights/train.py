"""Node classification on a citation-style graph whose edges carry features (co-citation
count, year gap, ...). A small MLP scores every edge and the scores are used as GCN edge
weights, so the model learns which links to trust. The GCN layers were copied from the
transductive Planetoid example, which builds them with cached=True."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from gnn import GCNConv

torch.manual_seed(0)
N_NODES, N_FEATS, EDGE_FEATS, N_CLASSES, HIDDEN = 30, 8, 4, 3, 16


class EdgeWeightedGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.edge_scorer = nn.Sequential(nn.Linear(EDGE_FEATS, 8), nn.ReLU(), nn.Linear(8, 1))
        self.conv1 = GCNConv(N_FEATS, HIDDEN, cached=True)
        self.conv2 = GCNConv(HIDDEN, N_CLASSES, cached=True)

    def forward(self, x, edge_index, edge_attr):
        edge_weight = torch.sigmoid(self.edge_scorer(edge_attr)).squeeze(-1)
        h = F.relu(self.conv1(x, edge_index, edge_weight))
        h = F.dropout(h, p=0.2, training=self.training)
        return self.conv2(h, edge_index, edge_weight)


def make_graph():
    labels = torch.randint(0, N_CLASSES, (N_NODES,))
    x = F.one_hot(labels, N_CLASSES).float().repeat(1, 3)[:, :N_FEATS] + torch.randn(N_NODES, N_FEATS)
    src = torch.randint(0, N_NODES, (90,))
    dst = torch.randint(0, N_NODES, (90,))
    same = (labels[src] == labels[dst]).float()
    edge_attr = torch.cat([same[:, None] + 0.3 * torch.randn(90, 1), torch.randn(90, 3)], dim=1)
    edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    return x, edge_index, edge_attr.repeat(2, 1), labels


x, edge_index, edge_attr, labels = make_graph()
train_mask = torch.rand(N_NODES) < 0.6
model = EdgeWeightedGCN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
for epoch in range(6):
    model.train()
    out = model(x, edge_index, edge_attr)
    loss = F.cross_entropy(out[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (out.argmax(1)[~train_mask] == labels[~train_mask]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} val acc {acc:.2f}")
