"""Semi-supervised node classification on a synthetic two-community graph (stochastic
block model) with a two-layer GCN; only a few nodes per class carry labels."""
import torch
import torch.nn.functional as F

from layers import GCN, normalized_adjacency

torch.manual_seed(0)
N_PER_CLASS, N_CLASSES, IN_DIM = 30, 3, 10
N = N_PER_CLASS * N_CLASSES

labels = torch.arange(N_CLASSES).repeat_interleave(N_PER_CLASS)
same = labels[:, None] == labels[None, :]
probs = torch.where(same, torch.tensor(0.15), torch.tensor(0.01))
upper = torch.triu(torch.rand(N, N) < probs, diagonal=1)
edge_index = upper.nonzero().t()
adj_norm = normalized_adjacency(edge_index, N)
features = torch.randn(N, IN_DIM) + 0.8 * F.one_hot(labels, IN_DIM).float()

train_mask = torch.zeros(N, dtype=torch.bool)
for c in range(N_CLASSES):
    train_mask[(labels == c).nonzero()[:4, 0]] = True

model = GCN(IN_DIM, 16, N_CLASSES)
optimizer = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)

for epoch in range(6):
    model.train()
    logits = model(features, adj_norm)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

    model.eval()
    with torch.no_grad():
        pred = model(features, adj_norm).argmax(1)
    acc = (pred[~train_mask] == labels[~train_mask]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} test acc {acc:.3f}")
