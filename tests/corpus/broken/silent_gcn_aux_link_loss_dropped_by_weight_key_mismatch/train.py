"""Semi-supervised node classification on a stochastic-block-model graph with a two-layer GCN,
regularised by an auxiliary link-prediction head. Loss weights come from a config dataclass."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import compute_losses


@dataclass
class TrainConfig:
    epochs: int = 6
    lr: float = 1e-2
    hidden: int = 16
    loss_weights: dict = field(default_factory=lambda: {"node_cls": 1.0, "link_pred": 0.5})


class BilinearDecoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.relation = nn.Linear(dim, dim, bias=False)

    def forward(self, z, edges):
        return (self.relation(z[edges[0]]) * z[edges[1]]).sum(-1)


class MultiTaskGCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.gc1 = nn.Linear(in_dim, hidden)
        self.gc2 = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, n_classes)
        self.link_decoder = BilinearDecoder(hidden)

    def encode(self, x, adj_norm):
        h = F.relu(adj_norm @ self.gc1(x))
        return adj_norm @ self.gc2(h)


def sbm_graph(n_per_block=12, n_blocks=3, p_in=0.4, p_out=0.03, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.arange(n_blocks).repeat_interleave(n_per_block)
    probs = torch.where(y[:, None] == y[None, :], p_in, p_out)
    adj = torch.triu((torch.rand(len(y), len(y), generator=g) < probs).float(), diagonal=1)
    adj = adj + adj.T
    a_hat = adj + torch.eye(len(y))
    d = a_hat.sum(1).rsqrt()
    x = F.one_hot(y, n_blocks).float() + 0.8 * torch.randn(len(y), n_blocks, generator=g)
    edges = adj.triu().nonzero().T
    return {"x": x, "y": y, "adj": adj, "adj_norm": d[:, None] * a_hat * d[None, :], "edges": edges}


def main(cfg=TrainConfig()):
    torch.manual_seed(0)
    graph = sbm_graph()
    train_mask = torch.zeros(len(graph["y"]), dtype=torch.bool)
    train_mask[::4] = True
    model = MultiTaskGCN(graph["x"].shape[1], cfg.hidden, int(graph["y"].max()) + 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=5e-4)
    g = torch.Generator().manual_seed(1)

    for epoch in range(cfg.epochs):
        model.train()
        losses = compute_losses(model, graph, train_mask, g)
        total = sum(cfg.loss_weights[k] * v for k, v in losses.items() if k in cfg.loss_weights)
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
        with torch.no_grad():
            pred = model.classifier(model.encode(graph["x"], graph["adj_norm"])).argmax(1)
            acc = (pred[~train_mask] == graph["y"][~train_mask]).float().mean().item()
        parts = " ".join(f"{k} {v.item():.4f}" for k, v in losses.items())
        print(f"epoch {epoch} total {total.item():.4f} {parts} test_acc {acc:.3f}")


if __name__ == "__main__":
    main()
