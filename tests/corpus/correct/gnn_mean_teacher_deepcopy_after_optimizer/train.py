"""Semi-supervised node classification with a mean teacher: the student GCN is trained on
the few labelled nodes plus a consistency loss towards the teacher's predictions on every
node. The teacher is a deep copy of the student made after the optimizer, frozen, and
moved towards the student by an exponential moving average of the weights after each
step. A smoothed loss (a detached tensor) is kept for the progress line."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
N_NODES, IN_DIM, HIDDEN, N_CLASSES, EMA_DECAY, CONS_WEIGHT = 40, 10, 16, 4, 0.9, 1.0


class GCN(nn.Module):
    def __init__(self, adj_norm):
        super().__init__()
        self.register_buffer("adj", adj_norm)
        self.lin1 = nn.Linear(IN_DIM, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, drop=0.0):
        h = F.relu(self.adj @ self.lin1(F.dropout(x, drop, self.training)))
        return self.adj @ self.lin2(F.dropout(h, drop, self.training))


def planted_partition():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None]
    adj = (torch.rand(N_NODES, N_NODES) < torch.where(same, 0.3, 0.03)).float()
    adj = ((adj + adj.t()) > 0).float() + torch.eye(N_NODES)
    d = adj.sum(1).rsqrt()
    x = F.one_hot(labels, IN_DIM).float() + 0.8 * torch.randn(N_NODES, IN_DIM)
    return x, labels, d[:, None] * adj * d[None]


x, labels, adj_norm = planted_partition()
labelled = torch.zeros(N_NODES, dtype=torch.bool)
labelled[:8] = True

student = GCN(adj_norm)
optimizer = torch.optim.Adam(student.parameters(), lr=0.02, weight_decay=5e-4)
teacher = copy.deepcopy(student)
teacher.requires_grad_(False)

smoothed = None
for step in range(8):
    student.train()
    logits = student(x, drop=0.3)
    with torch.no_grad():
        target = F.softmax(teacher(x), dim=1)
    sup = F.cross_entropy(logits[labelled], labels[labelled])
    cons = F.mse_loss(F.softmax(logits, dim=1), target)
    loss = sup + CONS_WEIGHT * cons
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for t_param, s_param in zip(teacher.parameters(), student.parameters()):
            t_param.lerp_(s_param, 1 - EMA_DECAY)
    smoothed = loss.detach() if smoothed is None else 0.8 * smoothed + 0.2 * loss.detach()
    print(f"step {step} sup {sup.item():.4f} cons {cons.item():.4f} smoothed {smoothed.item():.4f}")

student.eval()
with torch.no_grad():
    acc = (teacher(x).argmax(1) == labels)[~labelled].float().mean().item()
checksum = sum(p.sum().item() for p in student.parameters())
print(f"teacher unlabelled acc {acc:.3f} student checksum {checksum:.6f}")
