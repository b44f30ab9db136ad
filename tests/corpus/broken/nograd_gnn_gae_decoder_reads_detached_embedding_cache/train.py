"""Train the graph auto-encoder on a planted-partition graph: observed edges against
uniformly sampled negative pairs, binary cross-entropy on the decoder logits."""
import torch
import torch.nn.functional as F

from model import GraphAutoEncoder, normalized_adjacency

N_NODES, N_COMMUNITIES, D_FEAT = 60, 3, 8


def planted_partition(g):
    community = torch.arange(N_NODES) % N_COMMUNITIES
    same = community[:, None] == community[None, :]
    prob = torch.where(same, torch.tensor(0.25), torch.tensor(0.02))
    upper = torch.triu(torch.rand(N_NODES, N_NODES, generator=g) < prob, diagonal=1)
    edge_index = upper.nonzero().t()
    feats = F.one_hot(community, N_COMMUNITIES).float().repeat(1, 3)[:, :D_FEAT]
    feats = feats + 0.5 * torch.randn(N_NODES, D_FEAT, generator=g)
    return feats, edge_index


def main(epochs=6):
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    x, edges = planted_partition(g)
    a_hat = normalized_adjacency(edges, N_NODES)
    model = GraphAutoEncoder(D_FEAT)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        negatives = torch.randint(0, N_NODES, edges.shape, generator=g)
        pairs = torch.cat([edges, negatives], dim=1)
        targets = torch.cat([torch.ones(edges.size(1)), torch.zeros(negatives.size(1))])
        logits = model(x, a_hat, pairs)
        loss = F.binary_cross_entropy_with_logits(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = ((logits > 0).float() == targets).float().mean().item()
        print(f"epoch {epoch} bce {loss.item():.4f} pair accuracy {acc:.3f}")
    return model.node_embeddings


if __name__ == "__main__":
    emb = main()
    print("embedding norm", round(emb.norm().item(), 4))
