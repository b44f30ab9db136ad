"""Graph classification (is the random graph a ring or a star-of-cliques?) with a GIN that
has a virtual node, OGB-style: every layer broadcasts a graph-level embedding back to the
nodes. Mini-batches of graphs are packed into one disconnected graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
HIDDEN = 32


def ring(n):
    src = torch.arange(n)
    return torch.stack([src, (src + 1) % n])


def cliques(n):
    half = n // 2
    pairs = [(i, j) for i in range(half) for j in range(half) if i != j]
    pairs += [(half + i, half + j) for i in range(n - half) for j in range(n - half) if i != j]
    pairs += [(0, half)]
    return torch.tensor(pairs).t()


def pack(graphs):
    xs, edges, batch, offset = [], [], [], 0
    for gid, (n, edge_index) in enumerate(graphs):
        xs.append(torch.ones(n, 4) + 0.1 * torch.randn(n, 4))
        edges.append(edge_index + offset)
        batch.append(torch.full((n,), gid))
        offset += n
    return torch.cat(xs), torch.cat(edges, 1), torch.cat(batch)


class GINVirtualNode(nn.Module):
    def __init__(self, in_dim, hidden, n_layers=3):
        super().__init__()
        self.embed = nn.Linear(in_dim, hidden)
        self.mlps = nn.ModuleList(
            nn.Sequential(nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.Linear(hidden, hidden))
            for _ in range(n_layers))
        self.vn_mlps = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(n_layers - 1))
        self.readout = nn.Linear(hidden, 2)

    def forward(self, x, edge_index, batch, n_graphs):
        h = self.embed(x)
        vn = torch.zeros(n_graphs, h.shape[1])
        src, dst = edge_index
        for layer, mlp in enumerate(self.mlps):
            agg = h + torch.zeros_like(h).index_add(0, dst, h[src])
            h = F.relu(mlp(agg))
            h = h + vn[batch]
            if layer < len(self.vn_mlps):
                pooled = torch.zeros(n_graphs, h.shape[1]).index_add(0, batch, h)
                vn = vn + torch.tanh(self.vn_mlps[layer](pooled))
        graph_emb = torch.zeros(n_graphs, h.shape[1]).index_add(0, batch, h)
        return self.readout(graph_emb)


class Trainer:
    def __init__(self):
        self.model = GINVirtualNode(4, HIDDEN)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=5e-3)
        self.history = []

    def sample_batch(self, n_graphs=8):
        labels = torch.randint(0, 2, (n_graphs,))
        sizes = torch.randint(6, 10, (n_graphs,)).tolist()
        graphs = [(n, ring(n) if y == 0 else cliques(n)) for n, y in zip(sizes, labels.tolist())]
        return (*pack(graphs), labels)

    def train_step(self):
        x, edge_index, batch, labels = self.sample_batch()
        logits = self.model(x, edge_index, batch, labels.numel())
        loss = F.cross_entropy(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.history.append(loss.item())
        return loss.item()

    def fit(self, steps=6):
        for step in range(steps):
            print(f"step {step} loss {self.train_step():.4f}")


if __name__ == "__main__":
    Trainer().fit()
