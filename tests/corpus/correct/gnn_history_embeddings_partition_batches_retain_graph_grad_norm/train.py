"""Node classification with historical embeddings (GNNAutoScale-style): the graph is split into
partitions and trained one partition per step; out-of-batch neighbours contribute their
layer-1 embeddings from a History table, which is refreshed with the batch's fresh embeddings
after every forward. The task loss is backwarded with retain_graph=True so the layer-1
gradient norm of the task alone can be logged before the embedding regulariser is added."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, N_FEATS, HIDDEN, N_CLASSES, N_PARTS, REG = 40, 8, 16, 4, 4, 1e-2


class History:
    def __init__(self, n_nodes, dim):
        self.emb = torch.zeros(n_nodes, dim)

    @torch.no_grad()
    def push(self, idx, values):
        self.emb[idx] = values.detach()

    def pull_with(self, idx, fresh):
        return self.emb.index_put((idx,), fresh)


class HistoryGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(N_FEATS, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, a_hat, x, idx, history):
        h1 = F.relu(a_hat[idx] @ self.lin1(x))
        h1_all = history.pull_with(idx, h1)
        out = a_hat[idx] @ self.lin2(h1_all)
        history.push(idx, h1)
        return out, h1


def clustered_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(0.3), torch.tensor(0.04))
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < probs).float(), diagonal=1)
    adj = adj + adj.T + torch.eye(N_NODES)
    d = adj.sum(1).rsqrt()
    feats = torch.randn(N_NODES, N_FEATS) + F.one_hot(labels, N_FEATS).float()
    return d[:, None] * adj * d[None, :], feats, labels


a_hat, feats, labels = clustered_graph()
partitions = torch.randperm(N_NODES).chunk(N_PARTS)
model = HistoryGCN()
history = History(N_NODES, HIDDEN)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

loss_history = []
for epoch in range(2):
    for part, idx in enumerate(partitions):
        out, h1 = model(a_hat, feats, idx, history)
        task_loss = F.cross_entropy(out, labels[idx])
        reg_loss = REG * h1.pow(2).mean()
        optimizer.zero_grad()
        task_loss.backward(retain_graph=True)
        task_norm = model.lin1.weight.grad.norm().item()
        reg_loss.backward()
        optimizer.step()
        loss_history.append(task_loss.item())
        print(f"epoch {epoch} part {part} task {task_loss.item():.6f} "
              f"reg {reg_loss.item():.6f} |g_lin1 task| {task_norm:.6f}")

print("task losses " + " ".join(f"{v:.4f}" for v in loss_history))
print(f"history checksum {history.emb.sum().item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
