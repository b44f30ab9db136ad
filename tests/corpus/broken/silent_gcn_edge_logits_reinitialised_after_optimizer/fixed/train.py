"""Node classification with a two-layer GCN that learns a weight for every edge (a sigmoid
gate on the adjacency). The gates start from a degree-based prior that init_edge_gates()
sets once the graph statistics are known."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, IN_DIM, HIDDEN, N_CLASSES = 30, 8, 16, 3


class GatedGCN(nn.Module):
    def __init__(self, edge_index):
        super().__init__()
        self.edge_index = edge_index
        self.edge_logit = nn.Parameter(torch.zeros(edge_index.shape[1]))
        self.lin1 = nn.Linear(IN_DIM, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, N_CLASSES)

    def init_edge_gates(self, prior):
        self.edge_logit = nn.Parameter(torch.logit(prior.clamp(0.05, 0.95)))

    def propagate(self, h):
        src, dst = self.edge_index
        w = torch.sigmoid(self.edge_logit)
        deg = torch.ones(N_NODES).index_add(0, dst, w)
        msg = h[src] * (w / deg[dst])[:, None]
        return h / deg[:, None] + torch.zeros_like(h).index_add(0, dst, msg)

    def forward(self, x):
        h = F.relu(self.lin1(self.propagate(x)))
        return self.lin2(self.propagate(h))


def community_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    src = torch.randint(0, N_NODES, (120,))
    same = (labels[:, None] == labels[None]).nonzero()
    dst = same[torch.randint(0, len(same), (120,)), 1]
    dst = torch.where(torch.rand(120) < 0.7, dst, torch.randint(0, N_NODES, (120,)))
    x = F.one_hot(labels, IN_DIM).float() + 0.5 * torch.randn(N_NODES, IN_DIM)
    return x, labels, torch.stack([src, dst])


x, labels, edge_index = community_graph()
train_mask = torch.rand(N_NODES) < 0.6
model = GatedGCN(edge_index)
in_degree = torch.bincount(edge_index[1], minlength=N_NODES).float()
model.init_edge_gates(1.0 / (1.0 + in_degree[edge_index[1]]).sqrt())
optimizer = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)
for epoch in range(8):
    logits = model(x)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(1) == labels)[~train_mask].float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} held-out acc {acc:.2f}")
