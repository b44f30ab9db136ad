"""Link prediction on a small two-community graph with a two-layer GCN encoder and a
dot-product decoder. train() keeps its running numbers in a RunStats dataclass and prints the
mean loss since the start of the run after every batch of edges."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, N_FEATS, HIDDEN, EMB = 30, 8, 16, 8


@dataclass
class RunStats:
    loss_sum: torch.Tensor = field(default_factory=lambda: torch.zeros(()))
    correct: int = 0
    seen: int = 0
    steps: int = 0

    def mean_loss(self):
        return self.loss_sum / max(self.steps, 1)


def community_graph():
    community = torch.arange(N_NODES) % 2
    same = community[:, None] == community[None, :]
    probs = torch.where(same, torch.tensor(0.35), torch.tensor(0.03))
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < probs).float(), diagonal=1)
    adj = adj + adj.T
    feats = torch.randn(N_NODES, N_FEATS) + community[:, None].float()
    return adj, feats


def normalise(adj):
    adj = adj + torch.eye(len(adj))
    d = adj.sum(1).rsqrt()
    return d[:, None] * adj * d[None, :]


class GCNEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(N_FEATS, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, EMB)

    def forward(self, a_hat, x):
        h = F.relu(a_hat @ self.lin1(x))
        return a_hat @ self.lin2(h)


def edge_logits(z, edges):
    return (z[edges[0]] * z[edges[1]]).sum(-1)


def train(encoder, a_hat, x, pos_edges, epochs=2, batch=20):
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-2)
    stats = RunStats()
    for epoch in range(epochs):
        order = torch.randperm(pos_edges.shape[1])
        for start in range(0, len(order), batch):
            pos = pos_edges[:, order[start:start + batch]]
            neg = torch.randint(0, N_NODES, pos.shape)
            z = encoder(a_hat, x)
            logits = torch.cat([edge_logits(z, pos), edge_logits(z, neg)])
            labels = torch.cat([torch.ones(pos.shape[1]), torch.zeros(neg.shape[1])])
            loss = F.binary_cross_entropy_with_logits(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            stats.loss_sum += loss
            stats.correct += int(((logits > 0).float() == labels).sum())
            stats.seen += len(labels)
            stats.steps += 1
            print(f"epoch {epoch} step {stats.steps} loss {loss.item():.4f} "
                  f"mean {stats.mean_loss().item():.4f} acc {stats.correct / stats.seen:.3f}")
    return stats


adj, feats = community_graph()
pos_edges = torch.triu(adj, diagonal=1).nonzero().T
stats = train(GCNEncoder(), normalise(adj), feats, pos_edges)
print(f"edges {pos_edges.shape[1]} steps {stats.steps} final mean loss {stats.mean_loss().item():.4f}")
