"""Graph-less neural networks (GLNN, Zhang et al., 2022): a GCN teacher is trained on a
synthetic citation graph, its softened predictions for every node are computed once, and an
MLP student that never sees the graph is trained in node mini-batches on labels plus those
soft targets."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEATS, N_CLASSES, HIDDEN, T, LAMBDA = 48, 14, 4, 32, 2.0, 0.6


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(N_FEATS, HIDDEN), nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, a_hat):
        return a_hat @ self.lin2(F.relu(a_hat @ self.lin1(x)))


def citation_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < torch.where(same, 0.3, 0.02)).float(), 1)
    adj = adj + adj.t() + torch.eye(N_NODES)
    d = adj.sum(1).rsqrt()
    feats = F.one_hot(labels, N_FEATS).float() + 1.2 * torch.randn(N_NODES, N_FEATS)
    return feats, d[:, None] * adj * d[None, :], labels


def main():
    torch.manual_seed(0)
    feats, a_hat, labels = citation_graph()
    train_mask = torch.rand(N_NODES) < 0.5

    teacher = GCN()
    t_opt = torch.optim.Adam(teacher.parameters(), lr=0.02, weight_decay=5e-4)
    for epoch in range(5):
        loss = F.cross_entropy(teacher(feats, a_hat)[train_mask], labels[train_mask])
        t_opt.zero_grad()
        loss.backward()
        t_opt.step()
        print(f"teacher epoch {epoch}: ce {loss.item():.4f}")

    teacher.eval()
    with torch.no_grad():
        soft_targets = F.softmax(teacher(feats, a_hat) / T, dim=1)

    student = nn.Sequential(nn.Linear(N_FEATS, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, N_CLASSES))
    s_opt = torch.optim.Adam(student.parameters(), lr=0.01)
    for epoch in range(2):
        for idx in torch.randperm(N_NODES).split(16):
            logits = student(feats[idx])
            kd = F.kl_div(F.log_softmax(logits / T, 1), soft_targets[idx], reduction="batchmean") * T * T
            sup = train_mask[idx]
            ce = F.cross_entropy(logits[sup], labels[idx][sup]) if sup.any() else logits.sum() * 0
            loss = LAMBDA * ce + (1 - LAMBDA) * kd
            s_opt.zero_grad()
            loss.backward()
            s_opt.step()
        with torch.no_grad():
            acc = (student(feats)[~train_mask].argmax(1) == labels[~train_mask]).float().mean().item()
        print(f"student epoch {epoch}: loss {loss.item():.4f} test acc {acc:.3f}")
    print(f"student checksum {sum(p.sum().item() for p in student.parameters()):.4f}")


if __name__ == "__main__":
    main()
