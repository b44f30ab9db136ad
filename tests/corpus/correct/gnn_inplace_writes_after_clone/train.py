"""Two-layer graph convolution for node classification with in-place writes done safely.

Messages are scattered with index_add_ into a fresh zero tensor, the bias is added in
place to a Linear output (Linear does not save its output), and DropNode zeroes rows of
the ReLU output only after cloning it (ReLU saves its output for backward).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(31)
N_NODES, N_FEAT, N_CLASSES = 40, 8, 3


class GraphConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out, bias=False)
        self.bias = nn.Parameter(torch.zeros(d_out))

    def forward(self, x, src, dst, deg):
        msg = self.lin(x)[src] / deg[src].sqrt().unsqueeze(1)
        agg = torch.zeros(x.shape[0], msg.shape[1]).index_add_(0, dst, msg)
        agg = agg / deg.sqrt().unsqueeze(1)
        h = self.lin(x)
        h.add_(self.bias)           # Linear saved x and its weight, not h
        return agg + h


class GCN(nn.Module):
    def __init__(self, drop_node=0.2):
        super().__init__()
        self.conv1, self.conv2 = GraphConv(N_FEAT, 16), GraphConv(16, N_CLASSES)
        self.drop_node = drop_node

    def forward(self, x, src, dst, deg):
        h = F.relu(self.conv1(x, src, dst, deg))
        if self.training:
            h = h.clone()           # relu's output is saved; write into a copy
            h[torch.rand(h.shape[0]) < self.drop_node] = 0.0
        return self.conv2(h, src, dst, deg)


def random_graph():
    labels = torch.randint(0, N_CLASSES, (N_NODES,))
    x = F.one_hot(labels, N_FEAT).float() + 0.5 * torch.randn(N_NODES, N_FEAT)
    src, dst = torch.randint(0, N_NODES, (2, 160))
    keep = (labels[src] == labels[dst]) | (torch.rand(160) < 0.2)
    src, dst = src[keep], dst[keep]
    deg = torch.zeros(N_NODES).index_add_(0, dst, torch.ones(len(dst)))
    deg.clamp_(min=1.0)
    return x, labels, src, dst, deg


x, labels, src, dst, deg = random_graph()
train_mask = torch.arange(N_NODES) < 28
model = GCN()
opt = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)
for epoch in range(7):
    model.train()
    logits = model(x, src, dst, deg)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(x, src, dst, deg).argmax(1)[~train_mask] == labels[~train_mask]).float().mean()
    print(f"epoch {epoch} loss {loss.item():.6f} val acc {acc.item():.3f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
