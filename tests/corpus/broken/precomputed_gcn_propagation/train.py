"""Node classification on a small random graph: one GCN layer propagates features,
then an MLP head classifies mini-batches of training nodes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, IN_DIM, HID, N_CLASSES = 30, 8, 16, 3


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, adj_norm):
        return F.relu(adj_norm @ self.lin(x))


def normalize(adj):
    adj = adj + torch.eye(adj.size(0))
    d = adj.sum(1).pow(-0.5)
    return d[:, None] * adj * d[None, :]


def main():
    torch.manual_seed(0)
    x = torch.randn(N_NODES, IN_DIM)
    a = (torch.rand(N_NODES, N_NODES) < 0.15).float()
    adj_norm = normalize(((a + a.t()) > 0).float())
    labels = torch.randint(0, N_CLASSES, (N_NODES,))

    gcn = GCNLayer(IN_DIM, HID)
    head = nn.Sequential(nn.Linear(HID, HID), nn.ReLU(), nn.Linear(HID, N_CLASSES))
    optimizer = torch.optim.Adam([*gcn.parameters(), *head.parameters()], lr=0.01)

    h0 = gcn(x, adj_norm)  # propagate once over the whole graph
    batches = torch.randperm(N_NODES).split(10)
    for step, idx in enumerate(batches):
        logits = head(h0[idx])
        loss = F.cross_entropy(logits, labels[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
