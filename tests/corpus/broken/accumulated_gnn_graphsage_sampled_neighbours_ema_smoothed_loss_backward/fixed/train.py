"""GraphSAGE node classifier on a synthetic citation-style graph. Each step samples a few
neighbours per node and trains on a random set of seed nodes, so the per-step loss is
noisy; the script smooths it with an exponential moving average."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEATS, N_CLASSES = 40, 8, 3


class SAGELayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_out)
        self.neigh_lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, h, adj):
        deg = adj.sum(dim=1, keepdim=True).clamp(min=1)
        return self.self_lin(h) + self.neigh_lin(adj @ h / deg)


class GraphSAGE(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.l1 = SAGELayer(N_FEATS, hidden)
        self.l2 = SAGELayer(hidden, N_CLASSES)

    def forward(self, x, adj):
        return self.l2(F.relu(self.l1(x, adj)), adj)


def build_graph(gen):
    labels = torch.randint(0, N_CLASSES, (N_NODES,), generator=gen)
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(0.3), torch.tensor(0.03))
    adj = (torch.rand(N_NODES, N_NODES, generator=gen) < probs).float().triu(1)
    adj = adj + adj.t()
    x = torch.randn(N_NODES, N_FEATS, generator=gen) + F.one_hot(labels, N_FEATS).float()
    return x, adj, labels


def sample_neighbours(adj, k, gen):
    scores = torch.rand(adj.shape, generator=gen) * adj
    kth = scores.topk(k, dim=1).values[:, -1:]
    return ((scores >= kth) & (scores > 0)).float()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    x, adj, labels = build_graph(gen)
    model = GraphSAGE()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    beta, smoothed = 0.8, None

    for step in range(6):
        sub_adj = sample_neighbours(adj, k=3, gen=gen)
        seeds = torch.randperm(N_NODES, generator=gen)[:16]
        logits = model(x, sub_adj)
        loss = F.cross_entropy(logits[seeds], labels[seeds])
        smoothed = loss.item() if smoothed is None else beta * smoothed + (1 - beta) * loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} smoothed {smoothed:.4f} acc {acc:.2f}")


if __name__ == "__main__":
    main()
