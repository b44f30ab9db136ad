"""GraphSAGE-mean node classifier on a synthetic two-community graph, written without a
GNN library. Messages are summed into a fresh zero buffer with index_add_, divided by the
in-degree in place, and the skip projection is added in place onto the neighbour
projection; none of these buffers is saved by an op that backward needs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, N_FEATS, N_CLASSES = 60, 12, 3


def community_graph(n, n_classes, p_in=0.15, p_out=0.02):
    labels = torch.arange(n) % n_classes
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = torch.rand(n, n) < probs
    adj = (adj | adj.T) & ~torch.eye(n, dtype=torch.bool)
    src, dst = adj.nonzero(as_tuple=True)
    feats = torch.randn(n, N_FEATS) + F.one_hot(labels, N_FEATS).float() * 1.5
    return feats, src, dst, labels


class SAGELayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_proj = nn.Linear(d_in, d_out)
        self.neigh_proj = nn.Linear(d_in, d_out, bias=False)

    def forward(self, h, src, dst):
        agg = torch.zeros(h.size(0), h.size(1)).index_add_(0, dst, h[src])
        deg = torch.bincount(dst, minlength=h.size(0)).clamp(min=1).float()
        agg.div_(deg.unsqueeze(1))
        out = self.neigh_proj(agg)
        out += self.self_proj(h)
        return out


class SAGE(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = SAGELayer(N_FEATS, 32)
        self.layer2 = SAGELayer(32, N_CLASSES)

    def forward(self, x, src, dst):
        h = F.relu(self.layer1(x, src, dst))
        h = F.dropout(h, p=0.2, training=self.training)
        return self.layer2(h, src, dst)


feats, src, dst, labels = community_graph(N_NODES, N_CLASSES)
feats.sub_(feats.mean(0)).div_(feats.std(0))
train_mask = torch.rand(N_NODES) < 0.5
model = SAGE()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(6):
    model.train()
    logits = model(feats, src, dst)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        pred = model(feats, src, dst).argmax(1)
    test_acc = (pred[~train_mask] == labels[~train_mask]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} test acc {test_acc:.3f}")

checksum = sum(p.detach().double().sum().item() for p in model.parameters())
print(f"param checksum {checksum:.6f}")
