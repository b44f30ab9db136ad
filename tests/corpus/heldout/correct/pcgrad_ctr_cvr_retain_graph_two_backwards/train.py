"""Multi-task recommender (click-through and conversion heads over a shared bottom) trained
with PCGrad gradient surgery. Each task's gradient is materialised by its own backward call
over the same forward graph: the first one keeps the graph with retain_graph=True."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
N_USERS, N_ITEMS, DIM, BATCH = 40, 60, 12, 32


class SharedBottom(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.bottom = nn.Sequential(nn.Linear(2 * DIM, 32), nn.ReLU())
        self.ctr_head = nn.Linear(32, 1)
        self.cvr_head = nn.Linear(32, 1)

    def forward(self, users, items):
        h = self.bottom(torch.cat([self.user(users), self.item(items)], dim=1))
        return self.ctr_head(h).squeeze(1), self.cvr_head(h).squeeze(1)


def task_gradients(losses, params, optimizer):
    per_task = []
    for i, loss in enumerate(losses):
        optimizer.zero_grad()
        loss.backward(retain_graph=i < len(losses) - 1)
        per_task.append([p.grad.clone() if p.grad is not None else torch.zeros_like(p) for p in params])
    return per_task


def pcgrad(per_task):
    flat = [torch.cat([g.flatten() for g in grads]) for grads in per_task]
    projected = []
    for i, g in enumerate(flat):
        g = g.clone()
        for j, other in enumerate(flat):
            dot = torch.dot(g, other)
            if i != j and dot < 0:
                g -= dot / other.pow(2).sum() * other
        projected.append(g)
    return torch.stack(projected).sum(0)


model = SharedBottom()
params = list(model.parameters())
optimizer = torch.optim.Adam(params, lr=5e-3)
for step in range(6):
    users, items = torch.randint(0, N_USERS, (BATCH,)), torch.randint(0, N_ITEMS, (BATCH,))
    click = ((users + items) % 3 == 0).float()
    convert = click * ((items % 2) == 0).float()
    ctr_logit, cvr_logit = model(users, items)
    ctr_loss = F.binary_cross_entropy_with_logits(ctr_logit, click)
    cvr_loss = F.binary_cross_entropy_with_logits(cvr_logit, convert)
    merged = pcgrad(task_gradients([ctr_loss, cvr_loss], params, optimizer))
    offset = 0
    for p in params:
        p.grad = merged[offset:offset + p.numel()].view_as(p).clone()
        offset += p.numel()
    optimizer.step()
    print(f"step {step} ctr {ctr_loss.item():.5f} cvr {cvr_loss.item():.5f}")

print(f"parameter checksum {sum(p.double().sum().item() for p in params):.6f}")
