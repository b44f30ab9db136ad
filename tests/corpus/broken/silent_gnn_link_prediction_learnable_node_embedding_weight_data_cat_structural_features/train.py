"""Link prediction on a synthetic stochastic block model: hold out a tenth of the edges,
train the GCN encoder with a dot-product decoder on the rest against random negatives."""
import torch
import torch.nn.functional as F

from model import LinkPredictor

N, BLOCKS = 48, 3


def block_graph(generator):
    block = torch.arange(N) % BLOCKS
    p = torch.where(block[:, None] == block[None, :], 0.25, 0.02)
    upper = (torch.rand(N, N, generator=generator) < p).triu(1)
    edges = upper.nonzero().t()
    perm = torch.randperm(edges.size(1), generator=generator)
    n_test = edges.size(1) // 10
    return edges[:, perm[n_test:]], edges[:, perm[:n_test]]


def normalised_adjacency(edges):
    adj = torch.zeros(N, N)
    adj[edges[0], edges[1]] = 1.0
    adj = adj + adj.t() + torch.eye(N)
    d_inv_sqrt = adj.sum(1).rsqrt()
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


def structural_features(edges):
    adj = torch.zeros(N, N)
    adj[edges[0], edges[1]] = 1.0
    adj = adj + adj.t()
    degree = adj.sum(1)
    triangles = torch.diagonal(adj @ adj @ adj) / 2
    clustering = triangles / (degree * (degree - 1) / 2).clamp_min(1)
    return torch.stack([degree / degree.max(), clustering], dim=1)


def run_epoch(model, optimizer, adj_norm, train_edges, generator):
    z = model(adj_norm)
    neg = torch.randint(0, N, train_edges.shape, generator=generator)
    logits = torch.cat([model.score(z, train_edges), model.score(z, neg)])
    labels = torch.cat([torch.ones(train_edges.size(1)), torch.zeros(neg.size(1))])
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(17)
    train_edges, test_edges = block_graph(generator)
    adj_norm = normalised_adjacency(train_edges)
    model = LinkPredictor(N, structural_features(train_edges))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-2)
    for epoch in range(6):
        loss = run_epoch(model, optimizer, adj_norm, train_edges, generator)
        print(f"epoch {epoch} bce {loss:.4f}")
    with torch.no_grad():
        z = model(adj_norm)
        neg = torch.randint(0, N, test_edges.shape, generator=generator)
        pos_s, neg_s = model.score(z, test_edges), model.score(z, neg)
        auc = (pos_s[:, None] > neg_s[None, :]).float().mean().item()
    print(f"test auc {auc:.3f}")


if __name__ == "__main__":
    main()
