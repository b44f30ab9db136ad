"""Click-through / conversion multi-task ranking model trained with PCGrad.

Each task's gradient is computed separately with torch.autograd.grad over all parameters,
keeping the shared graph alive (retain_graph=True) for every task but the last. Conflicting
shared-parameter gradients are projected, the result is written into .grad, and Adam steps.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
random.seed(21)
N_USERS, N_ITEMS, EMB = 30, 40, 8


class CtrCvrModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, EMB)
        self.item_emb = nn.Embedding(N_ITEMS, EMB)
        self.shared = nn.Sequential(nn.Linear(2 * EMB, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.ctr_head = nn.Linear(16, 1)
        self.cvr_head = nn.Linear(16, 1)

    def shared_parameters(self):
        return [*self.user_emb.parameters(), *self.item_emb.parameters(), *self.shared.parameters()]

    def forward(self, users, items):
        h = self.shared(torch.cat([self.user_emb(users), self.item_emb(items)], dim=1))
        return self.ctr_head(h).squeeze(1), self.cvr_head(h).squeeze(1)


def pcgrad_step(model, losses, optimizer):
    params = list(model.parameters())
    shared_ids = {id(p) for p in model.shared_parameters()}
    per_task = []
    for i, loss in enumerate(losses):
        grads = torch.autograd.grad(loss, params, retain_graph=i < len(losses) - 1, allow_unused=True)
        per_task.append([torch.zeros_like(p) if g is None else g for p, g in zip(params, grads)])
    shared_idx = [k for k, p in enumerate(params) if id(p) in shared_ids]
    flat = [torch.cat([g[k].flatten() for k in shared_idx]) for g in per_task]
    projected = []
    for i, g_i in enumerate(flat):
        g = g_i.clone()
        for j in random.sample(range(len(flat)), len(flat)):
            dot = torch.dot(g, flat[j])
            if j != i and dot < 0:
                g -= dot / flat[j].pow(2).sum() * flat[j]
        projected.append(g)
    merged = torch.stack(projected).sum(0)
    conflict = torch.dot(flat[0], flat[1]).item() < 0
    optimizer.zero_grad()
    offset = 0
    for k, p in enumerate(params):
        if k in shared_idx:
            p.grad = merged[offset:offset + p.numel()].view_as(p).clone()
            offset += p.numel()
        else:
            p.grad = sum(g[k] for g in per_task)
    optimizer.step()
    return conflict


model = CtrCvrModel()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(6):
    users, items = torch.randint(0, N_USERS, (32,)), torch.randint(0, N_ITEMS, (32,))
    clicked = ((users + items) % 3 == 0).float()
    converted = clicked * ((users % 2) == 0).float()
    ctr_logit, cvr_logit = model(users, items)
    ctr_loss = F.binary_cross_entropy_with_logits(ctr_logit, clicked)
    cvr_loss = F.binary_cross_entropy_with_logits(cvr_logit, converted)
    conflict = pcgrad_step(model, [ctr_loss, cvr_loss], optimizer)
    print(f"step {step} ctr {ctr_loss.item():.6f} cvr {cvr_loss.item():.6f} conflict {conflict}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
