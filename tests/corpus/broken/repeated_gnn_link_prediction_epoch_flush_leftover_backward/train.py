"""Link prediction on a small community graph: a two-layer mean-aggregation (GraphSAGE-style)
encoder embeds all nodes, a dot-product decoder scores held edges against uniformly sampled
negative pairs. Edge mini-batches are accumulated ACCUM at a time before each optimizer
step; held-out edges are scored with a pairwise AUC after every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, FEAT, HID, ACCUM, BATCH_EDGES = 40, 8, 16, 2, 10


class SAGEEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.self1, self.neigh1 = nn.Linear(FEAT, HID), nn.Linear(FEAT, HID, bias=False)
        self.self2, self.neigh2 = nn.Linear(HID, HID), nn.Linear(HID, HID, bias=False)

    def forward(self, x, adj_mean):
        h = F.relu(self.self1(x) + self.neigh1(adj_mean @ x))
        return self.self2(h) + self.neigh2(adj_mean @ h)


def community_graph():
    community = torch.arange(N_NODES) % 4
    same = community[:, None] == community[None, :]
    prob = torch.where(same, torch.tensor(0.3), torch.tensor(0.02))
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < prob).float(), diagonal=1)
    edges = adj.nonzero()
    x = F.one_hot(community, 4).float().repeat(1, FEAT // 4) + 0.3 * torch.randn(N_NODES, FEAT)
    return x, edges


def mean_adjacency(edges):
    adj = torch.zeros(N_NODES, N_NODES)
    adj[edges[:, 0], edges[:, 1]] = 1.0
    adj = adj + adj.t()
    return adj / adj.sum(1, keepdim=True).clamp(min=1.0)


def edge_scores(z, pairs):
    return (z[pairs[:, 0]] * z[pairs[:, 1]]).sum(-1)


def train(epochs=2):
    torch.manual_seed(0)
    x, edges = community_graph()
    edges = edges[torch.randperm(len(edges))]
    held_out, train_edges = edges[:10], edges[10:60]
    adj_mean = mean_adjacency(train_edges)
    encoder = SAGEEncoder()
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-2)

    for epoch in range(epochs):
        optimizer.zero_grad()
        batches = train_edges[torch.randperm(len(train_edges))].split(BATCH_EDGES)
        for i, pos in enumerate(batches):
            z = encoder(x, adj_mean)
            neg = torch.randint(0, N_NODES, pos.shape)
            scores = torch.cat([edge_scores(z, pos), edge_scores(z, neg)])
            labels = torch.cat([torch.ones(len(pos)), torch.zeros(len(neg))])
            loss = F.binary_cross_entropy_with_logits(scores, labels) / ACCUM
            loss.backward()
            if (i + 1) % ACCUM == 0:
                optimizer.step()
                optimizer.zero_grad()
        if (i + 1) % ACCUM != 0:  # flush the leftover micro-batch at the end of the epoch
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()

        with torch.no_grad():
            z = encoder(x, adj_mean)
            pos_s = edge_scores(z, held_out)
            neg_s = edge_scores(z, torch.randint(0, N_NODES, held_out.shape))
            auc = (pos_s[:, None] > neg_s[None, :]).float().mean().item()
        print(f"epoch {epoch}: last loss {loss.item() * ACCUM:.4f} held-out AUC {auc:.3f}")


if __name__ == "__main__":
    train()
