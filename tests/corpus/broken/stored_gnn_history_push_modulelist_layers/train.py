"""Node classification on a small synthetic two-community graph, trained in node mini-batches."""
import torch
import torch.nn.functional as F

from gnn import HistoryGCN

N_NODES, IN_DIM, HIDDEN, N_CLASSES, BATCH = 12, 6, 16, 2, 4


def two_communities():
    labels = torch.arange(N_NODES) % 2
    same = labels[:, None] == labels[None, :]
    adj = (torch.rand(N_NODES, N_NODES) < torch.where(same, 0.6, 0.1)).float()
    adj = ((adj + adj.t()) > 0).float() + torch.eye(N_NODES)
    deg = adj.sum(1)
    adj = adj / torch.sqrt(deg[:, None] * deg[None, :])
    x = torch.randn(N_NODES, IN_DIM) + labels[:, None].float()
    return x, adj, labels


torch.manual_seed(0)
x, adj, labels = two_communities()
model = HistoryGCN(N_NODES, IN_DIM, HIDDEN, N_CLASSES)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
for epoch in range(2):
    perm = torch.randperm(N_NODES)
    for b in range(0, N_NODES, BATCH):
        batch = perm[b:b + BATCH]
        logits = model(x, adj, batch)
        loss = F.cross_entropy(logits, labels[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} batch {b // BATCH}: loss {loss.item():.4f}")
