"""Semi-supervised node classification on a small community graph with a two-layer GCN.
Stage 1 trains on the seed labels while keeping an EMA of the weights; stage 2 continues
from the smoothed (EMA) weights with a lower learning rate once a second batch of nodes has
been labelled."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from ema import ModelEma

N_NODES, N_FEATS, N_CLASSES = 60, 8, 3


def community_graph(gen):
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    prob = torch.where(same, torch.tensor(0.25), torch.tensor(0.02))
    adj = (torch.rand(N_NODES, N_NODES, generator=gen) < prob).float().triu(1)
    adj = adj + adj.T + torch.eye(N_NODES)
    deg = adj.sum(1)
    norm_adj = adj / torch.sqrt(deg[:, None] * deg[None, :])
    centers = torch.randn(N_CLASSES, N_FEATS, generator=gen)
    x = centers[labels] + 1.5 * torch.randn(N_NODES, N_FEATS, generator=gen)
    return x, norm_adj, labels


class GCN(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.lin1 = nn.Linear(N_FEATS, hidden)
        self.lin2 = nn.Linear(hidden, N_CLASSES)

    def forward(self, x, adj):
        h = F.relu(adj @ self.lin1(x))
        return adj @ self.lin2(h)


class Trainer:
    def __init__(self, model, graph, lr=0.02):
        self.x, self.adj, self.labels = graph
        self.model = model
        self.ema = ModelEma(model, decay=0.8)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=5e-4)

    def step(self, mask):
        self.model.train()
        logits = self.model(self.x, self.adj)
        loss = F.cross_entropy(logits[mask], self.labels[mask])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def pretrain(self, mask, steps):
        for step in range(steps):
            loss = self.step(mask)
            self.ema.update(self.model)
            print(f"pretrain {step} loss {loss:.4f}")

    def finetune_from_ema(self, mask, steps, lr):
        self.model = copy.deepcopy(self.ema.module).requires_grad_(True)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        for step in range(steps):
            print(f"finetune {step} loss {self.step(mask):.4f}")

    @torch.no_grad()
    def accuracy(self, mask):
        self.model.eval()
        pred = self.model(self.x, self.adj).argmax(1)
        return (pred[mask] == self.labels[mask]).float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    graph = community_graph(gen)
    order = torch.randperm(N_NODES, generator=gen)
    seed_mask = torch.zeros(N_NODES, dtype=torch.bool)
    seed_mask[order[:12]] = True
    more_mask = torch.zeros(N_NODES, dtype=torch.bool)
    more_mask[order[:24]] = True
    test_mask = torch.zeros(N_NODES, dtype=torch.bool)
    test_mask[order[30:]] = True

    trainer = Trainer(GCN(), graph)
    trainer.pretrain(seed_mask, steps=4)
    trainer.finetune_from_ema(more_mask, steps=3, lr=5e-3)
    print(f"test acc {trainer.accuracy(test_mask):.3f}")
    print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.4f}")
