"""Mean-aggregation GraphSAGE on a synthetic co-purchase graph with label reuse: every node's
input carries a label slot, the true one-hot label for training nodes and the model's own
previous prediction for the rest. Predictions are recycled through the model twice per
epoch without gradient, and the slot lives in a registered buffer updated in place."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEATS, N_CLASSES = 80, 12, 4


class LabelReuseSAGE(nn.Module):
    def __init__(self, train_mask, labels, hidden=32):
        super().__init__()
        self.self1 = nn.Linear(N_FEATS + N_CLASSES, hidden)
        self.neigh1 = nn.Linear(N_FEATS + N_CLASSES, hidden)
        self.self2 = nn.Linear(hidden, N_CLASSES)
        self.neigh2 = nn.Linear(hidden, N_CLASSES)
        onehot = F.one_hot(labels, N_CLASSES).float()
        self.register_buffer("train_mask", train_mask[:, None])
        self.register_buffer("onehot", onehot)
        self.register_buffer("label_slot", torch.where(self.train_mask, onehot, 0.0))

    def forward(self, feats, mean_adj):
        x = torch.cat([feats, self.label_slot], dim=1)
        h = F.relu(self.self1(x) + self.neigh1(mean_adj @ x))
        return self.self2(h) + self.neigh2(mean_adj @ h)

    @torch.no_grad()
    def recycle(self, feats, mean_adj, rounds=2):
        for _ in range(rounds):
            probs = F.softmax(self(feats, mean_adj), dim=1)
            self.label_slot.copy_(torch.where(self.train_mask, self.onehot, probs))


def co_purchase_graph():
    labels = torch.randint(0, N_CLASSES, (N_NODES,))
    feats = torch.randn(N_NODES, N_FEATS) + F.one_hot(labels, N_FEATS).float()
    p = torch.where(labels[:, None] == labels[None, :], 0.12, 0.015)
    adj = (torch.rand(N_NODES, N_NODES) < p).float()
    adj = ((adj + adj.t()) > 0).float()
    mean_adj = adj / adj.sum(1, keepdim=True).clamp(min=1)
    return feats, mean_adj, labels


torch.manual_seed(0)
feats, mean_adj, labels = co_purchase_graph()
train_mask = torch.zeros(N_NODES, dtype=torch.bool)
train_mask[torch.randperm(N_NODES)[:24]] = True
model = LabelReuseSAGE(train_mask, labels)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(6):
    model.train()
    logits = model(feats, mean_adj)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.recycle(feats, mean_adj)
    acc = (logits.argmax(1)[~train_mask] == labels[~train_mask]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} unlabelled acc {acc:.3f}")

print(f"param checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
