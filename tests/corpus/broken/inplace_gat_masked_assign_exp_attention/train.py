"""Node classification on a synthetic two-community graph with a hand-written dense GAT.
Attention weights are a softmax over each node's neighbours, written out by hand so the
non-edges can be zeroed before normalising."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, N_FEATS, HIDDEN, N_CLASSES = 40, 8, 16, 2


def make_graph(n=N_NODES, p_in=0.3, p_out=0.03):
    labels = (torch.arange(n) >= n // 2).long()
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = (torch.rand(n, n) < probs).float()
    adj = ((adj + adj.t()) > 0).float()
    adj.fill_diagonal_(1.0)
    feats = torch.randn(n, N_FEATS) + labels.unsqueeze(1).float()
    return feats, adj, labels


class GraphAttention(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.W = nn.Linear(in_dim, out_dim, bias=False)
        self.att_src = nn.Parameter(0.1 * torch.randn(out_dim))
        self.att_dst = nn.Parameter(0.1 * torch.randn(out_dim))

    def forward(self, x, adj):
        h = self.W(x)
        scores = (h @ self.att_src).unsqueeze(1) + (h @ self.att_dst).unsqueeze(0)
        scores = F.leaky_relu(scores, 0.2)
        alpha = torch.exp(scores - scores.max(dim=1, keepdim=True).values)
        alpha[adj == 0] = 0.0
        alpha = alpha / alpha.sum(dim=1, keepdim=True)
        return alpha @ h


class GAT(nn.Module):
    def __init__(self):
        super().__init__()
        self.gat1 = GraphAttention(N_FEATS, HIDDEN)
        self.gat2 = GraphAttention(HIDDEN, N_CLASSES)

    def forward(self, x, adj):
        return self.gat2(F.elu(self.gat1(x, adj)), adj)


feats, adj, labels = make_graph()
train_mask = torch.rand(N_NODES) < 0.5
model = GAT()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=5e-4)
for epoch in range(6):
    logits = model(feats, adj)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(1)[~train_mask] == labels[~train_mask]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} test acc {acc:.3f}")
