"""Two-layer GCN for node classification. Every epoch the predictions, the embeddings of the
first layer and the loss are logged for later plots: all of them are stored detached (or as
Python floats), so nothing keeps an epoch's graph alive."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, FEATS, CLASSES = 48, 6, 3


def build_graph():
    labels = torch.arange(N) % CLASSES
    same = labels[:, None] == labels[None, :]
    adj = (torch.rand(N, N) < torch.where(same, 0.25, 0.03)).float().triu(1)
    adj = adj + adj.t() + torch.eye(N)
    d = adj.sum(1).rsqrt()
    x = torch.randn(N, FEATS) + F.one_hot(labels, FEATS).float()
    return x, d[:, None] * adj * d[None, :], labels


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(FEATS, 16)
        self.lin2 = nn.Linear(16, CLASSES)

    def forward(self, x, a_hat):
        h = F.relu(a_hat @ self.lin1(x))
        return a_hat @ self.lin2(F.dropout(h, 0.2, self.training)), h


class TrainingLog:
    def __init__(self):
        self.losses, self.preds, self.embeddings = [], [], []

    def record(self, loss, logits, h):
        self.losses.append(loss.item())
        self.preds.append(logits.detach().argmax(1))
        self.embeddings.append(h.detach().clone())


x, a_hat, labels = build_graph()
train_mask = torch.rand(N) < 0.4
model = GCN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)
log = TrainingLog()
for epoch in range(8):
    model.train()
    logits, h = model(x, a_hat)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    log.record(loss, logits, h)
    acc = (log.preds[-1][~train_mask] == labels[~train_mask]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.6f} test acc {acc:.3f}")
drift = (log.embeddings[-1] - log.embeddings[0]).norm().item()
print(f"embedding drift {drift:.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
