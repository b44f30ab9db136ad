"""Semi-supervised node classification on a synthetic two-community graph (SBM)."""
import torch
import torch.nn.functional as F

from model import APPNP, normalized_adjacency

torch.manual_seed(0)
N, FEATS, CLASSES = 60, 8, 2


def make_graph():
    labels = (torch.arange(N) >= N // 2).long()
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(0.15), torch.tensor(0.02))
    edges = (torch.rand(N, N) < probs).triu(1).nonzero().t()
    x = torch.randn(N, FEATS) + 0.5 * labels[:, None].float()
    return x, edges, labels


def train(epochs=6):
    x, edges, labels = make_graph()
    adj = normalized_adjacency(edges, N)
    train_mask = torch.zeros(N, dtype=torch.bool)
    train_mask[torch.randperm(N)[:12]] = True
    model = APPNP(FEATS, 16, CLASSES)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        out = model(x, adj)
        loss = F.nll_loss(out[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (out.argmax(1)[~train_mask] == labels[~train_mask]).float().mean()
        print(f"epoch {epoch} loss {loss.item():.4f} test acc {acc.item():.3f}")


train()
