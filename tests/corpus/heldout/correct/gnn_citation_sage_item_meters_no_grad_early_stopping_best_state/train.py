"""GraphSAGE-style node classifier on a synthetic citation graph, mini-batched over training
nodes. Running loss/accuracy meters, a smoothed loss for the progress line, validation and
early stopping with a copy of the best weights."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, FEAT, HIDDEN, N_CLASSES, BATCH = 120, 10, 32, 4, 24


def citation_graph():
    labels = torch.randint(0, N_CLASSES, (N_NODES,))
    same = labels[:, None] == labels[None, :]
    adj = (torch.rand(N_NODES, N_NODES) < torch.where(same, 0.08, 0.01)).float()
    adj = ((adj + adj.t()) > 0).float()
    adj_mean = adj / adj.sum(1, keepdim=True).clamp(min=1)
    x = F.one_hot(labels, FEAT).float() * 0.8 + torch.randn(N_NODES, FEAT)
    return x, adj_mean, labels


class SAGE(nn.Module):
    def __init__(self):
        super().__init__()
        self.self1, self.neigh1 = nn.Linear(FEAT, HIDDEN), nn.Linear(FEAT, HIDDEN, bias=False)
        self.self2, self.neigh2 = nn.Linear(HIDDEN, HIDDEN), nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.cls = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, adj_mean):
        h = F.relu(self.self1(x) + self.neigh1(adj_mean @ x))
        h = F.dropout(h, 0.3, self.training)
        h = F.relu(self.self2(h) + self.neigh2(adj_mean @ h))
        return self.cls(h)


class Meter:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value, n):
        self.total += value * n
        self.count += n

    @property
    def mean(self):
        return self.total / max(self.count, 1)


x, adj_mean, labels = citation_graph()
perm = torch.randperm(N_NODES)
train_idx, val_idx = perm[:72], perm[72:]
model = SAGE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
best_val, best_state, patience, bad_epochs, smoothed = float("inf"), None, 2, 0, None

for epoch in range(6):
    model.train()
    loss_meter, acc_meter = Meter(), Meter()
    for batch in train_idx[torch.randperm(len(train_idx))].split(BATCH):
        logits = model(x, adj_mean)[batch]
        loss = F.cross_entropy(logits, labels[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_meter.update(loss.item(), len(batch))
        acc_meter.update((logits.argmax(1) == labels[batch]).float().mean().item(), len(batch))
        smoothed = loss.item() if smoothed is None else 0.9 * smoothed + 0.1 * loss.item()
    model.eval()
    with torch.no_grad():
        val_logits = model(x, adj_mean)[val_idx]
        val_loss = F.cross_entropy(val_logits, labels[val_idx])
        val_acc = (val_logits.argmax(1) == labels[val_idx]).float().mean()
    print(f"epoch {epoch}  train loss {loss_meter.mean:.4f} acc {acc_meter.mean:.3f}  "
          f"smoothed {smoothed:.4f}  val loss {val_loss:.4f} acc {val_acc:.3f}")
    if val_loss < best_val:
        best_val, bad_epochs = val_loss, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad_epochs += 1
        if bad_epochs > patience:
            break

model.load_state_dict(best_state)
checksum = sum(p.double().sum().item() for p in model.parameters())
print(f"best val loss {float(best_val):.4f}  parameter checksum {checksum:.6f}")
