"""Node classification with FLAG (Kong et al., 2022): each training step makes M ascent steps
on an adversarial perturbation of the node features, backwarding the (1/M-scaled) loss every
time so that the model's gradients accumulate over all M perturbed views; the optimizer then
steps once."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEATS, N_CLASSES, HIDDEN, M, STEP_SIZE = 40, 12, 3, 32, 3, 1e-2


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(N_FEATS, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, a_hat):
        return a_hat @ self.lin2(F.relu(a_hat @ self.lin1(x)))


def flag_step(model, x, a_hat, labels, mask, optimizer):
    model.train()
    optimizer.zero_grad()
    perturb = torch.empty_like(x).uniform_(-STEP_SIZE, STEP_SIZE).requires_grad_()
    out = model(x + perturb, a_hat)
    loss = F.cross_entropy(out[mask], labels[mask]) / M
    for _ in range(M - 1):
        loss.backward()
        perturb_data = perturb.detach() + STEP_SIZE * torch.sign(perturb.grad.detach())
        perturb.data = perturb_data.data
        perturb.grad[:] = 0
        out = model(x + perturb, a_hat)
        loss = F.cross_entropy(out[mask], labels[mask]) / M
    loss.backward()
    optimizer.step()
    return loss.item() * M


def graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < torch.where(same, 0.3, 0.03)).float(), 1)
    adj = adj + adj.t() + torch.eye(N_NODES)
    d = adj.sum(1).rsqrt()
    feats = F.one_hot(labels, N_FEATS).float() + torch.randn(N_NODES, N_FEATS)
    return feats, d[:, None] * adj * d[None, :], labels


torch.manual_seed(0)
feats, a_hat, labels = graph()
train_mask = torch.rand(N_NODES) < 0.5
model = GCN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(6):
    loss = flag_step(model, feats, a_hat, labels, train_mask, optimizer)
    model.eval()
    with torch.no_grad():
        acc = (model(feats, a_hat)[~train_mask].argmax(1) == labels[~train_mask]).float().mean().item()
    print(f"epoch {epoch}: last adversarial loss {loss:.4f} val acc {acc:.3f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
