"""Node classification with a GCN whose edge weights are learned: an edge MLP scores
every edge from its endpoints' features, so noisy inter-community edges can be
down-weighted. main() is the 5-step smoke run before the full sweep."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEAT, N_CLASSES = 30, 6, 2


def make_graph(g):
    labels = (torch.arange(N_NODES) >= N_NODES // 2).long()
    x = torch.randn(N_NODES, N_FEAT, generator=g) + 1.5 * labels.unsqueeze(1).float()
    src = torch.randint(0, N_NODES, (90,), generator=g)
    dst = torch.randint(0, N_NODES, (90,), generator=g)
    keep = (labels[src] == labels[dst]) | (torch.rand(90, generator=g) < 0.3)
    src, dst = src[keep & (src != dst)], dst[keep & (src != dst)]
    edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    return x, edge_index, labels


def gcn_normalize(edge_index, edge_weight, num_nodes):
    """Dense D^-1/2 (A + I) D^-1/2, kept in torch so the edge weights get gradients."""
    src, dst = edge_index
    adj = torch.eye(num_nodes).index_put((dst, src), edge_weight, accumulate=True)
    d_inv_sqrt = adj.sum(1).rsqrt()
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class EdgeWeightedGCN(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.edge_mlp = nn.Sequential(nn.Linear(N_FEAT, 8), nn.ReLU(), nn.Linear(8, 1))
        self.conv1 = nn.Linear(N_FEAT, hidden)
        self.conv2 = nn.Linear(hidden, N_CLASSES)

    def forward(self, x, edge_index):
        src, dst = edge_index
        edge_weight = torch.sigmoid(self.edge_mlp((x[src] - x[dst]).abs())).squeeze(1)
        adj = gcn_normalize(edge_index, edge_weight, x.shape[0])
        h = F.relu(adj @ self.conv1(x))
        return adj @ self.conv2(h), edge_weight


def main(steps=5):
    torch.manual_seed(0)
    x, edge_index, labels = make_graph(torch.Generator().manual_seed(0))
    train_mask = torch.rand(N_NODES) < 0.5
    model = EdgeWeightedGCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    history = []
    for step in range(steps):
        logits, edge_weight = model(x, edge_index)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels)[~train_mask].float().mean().item()
        history.append(loss.item())
        print(f"step {step}: loss {loss.item():.4f} val acc {acc:.3f} mean edge w {edge_weight.mean().item():.3f}")
    return model, history


if __name__ == "__main__":
    main()
