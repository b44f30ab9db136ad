"""Graph classification on synthetic graphs: rings with random chords (class 0) versus
random trees (class 1), node features = one-hot degree. Mini-batches are disjoint unions
of graphs with a batch vector, as in PyG."""
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from layers import GIN

MAX_DEG = 6


@dataclass
class Config:
    hidden: int = 32
    layers: int = 3
    aggr: str = "amax"
    lr: float = 5e-3
    epochs: int = 4
    graphs_per_batch: int = 16
    batches: int = 2


def random_graph(label, gen):
    n = int(torch.randint(6, 12, (1,), generator=gen))
    if label == 0:
        src = torch.arange(n)
        dst = (src + 1) % n
        chords = torch.randint(0, n, (2, 2), generator=gen)
        src, dst = torch.cat([src, chords[0]]), torch.cat([dst, chords[1]])
    else:
        dst = torch.arange(1, n)
        src = torch.stack([torch.randint(0, int(i), (1,), generator=gen)[0] for i in dst])
    keep = src != dst
    src, dst = src[keep], dst[keep]
    edges = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    deg = torch.bincount(edges[1], minlength=n).clamp(max=MAX_DEG - 1)
    return F.one_hot(deg, MAX_DEG).float(), edges


def make_batch(n_graphs, gen):
    labels = torch.randint(0, 2, (n_graphs,), generator=gen)
    xs, edges, batch, offset = [], [], [], 0
    for g, label in enumerate(labels.tolist()):
        x, e = random_graph(label, gen)
        xs.append(x)
        edges.append(e + offset)
        batch.append(torch.full((x.size(0),), g))
        offset += x.size(0)
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch), labels


def main(cfg=Config()):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    model = GIN(MAX_DEG, cfg.hidden, 2, cfg.layers, cfg.aggr)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        total, correct = 0.0, 0
        for _ in range(cfg.batches):
            x, edge_index, batch, labels = make_batch(cfg.graphs_per_batch, gen)
            logits = model(x, edge_index, batch, cfg.graphs_per_batch)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
            correct += int((logits.argmax(1) == labels).sum())
        print(f"epoch {epoch} loss {total / cfg.batches:.4f} "
              f"acc {correct / (cfg.batches * cfg.graphs_per_batch):.3f}")


if __name__ == "__main__":
    main()
