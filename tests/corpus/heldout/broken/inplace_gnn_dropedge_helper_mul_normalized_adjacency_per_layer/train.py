"""Semi-supervised node classification with a 3-layer GCN and layer-wise DropEdge on a
synthetic citation-like graph (three communities with noisy features)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from gnn_utils import drop_edges, masked_accuracy, normalize_adj, random_split

N_NODES, N_FEATS, N_CLASSES, HIDDEN, DROP_EDGE = 40, 12, 3, 24, 0.2


class DeepGCN(nn.Module):
    def __init__(self, dims, drop_edge):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.drop_edge = drop_edge

    def forward(self, x, a_hat):
        h = x
        for i, layer in enumerate(self.layers):
            a = drop_edges(a_hat, self.drop_edge, self.training)
            h = a @ layer(h)
            if i < len(self.layers) - 1:
                h = F.dropout(F.relu(h), p=0.3, training=self.training)
        return h


def make_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < torch.where(same, 0.35, 0.03)).float(), 1)
    feats = F.one_hot(labels, N_FEATS).float() + 0.8 * torch.randn(N_NODES, N_FEATS)
    return feats, adj + adj.t(), labels


def fit(model, feats, a_hat, labels, train_mask, epochs=6):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        logits = model(feats, a_hat)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f} "
              f"train acc {masked_accuracy(logits, labels, train_mask):.3f}")


torch.manual_seed(0)
feats, adj, labels = make_graph()
a_hat = normalize_adj(adj)
train_mask, test_mask = random_split(N_NODES, 0.5)
model = DeepGCN([N_FEATS, HIDDEN, HIDDEN, N_CLASSES], DROP_EDGE)
fit(model, feats, a_hat, labels, train_mask)
model.eval()
with torch.no_grad():
    print(f"test acc {masked_accuracy(model(feats, a_hat), labels, test_mask):.3f}")
