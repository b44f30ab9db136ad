"""Adversarial Personalized Ranking (APR): BPR matrix factorisation regularised by the BPR
loss under a worst-case (fast gradient) perturbation of the user and item embeddings.

Per batch: the clean BPR loss, its gradient w.r.t. the looked-up embeddings (autograd.grad,
keeping the graph), a perturbation eps * g / ||g|| treated as a constant, the adversarial BPR
loss on the perturbed embeddings, and one backward of the sum.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, BATCH, STEPS, EPS, ADV_WEIGHT = 20, 50, 12, 64, 6, 0.5, 1.0


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        nn.init.normal_(self.user.weight, std=0.1)
        nn.init.normal_(self.item.weight, std=0.1)


def bpr(u, i, j):
    return -F.logsigmoid((u * i).sum(-1) - (u * j).sum(-1)).mean()


def triples(gen):
    users = torch.randint(0, N_USERS, (BATCH,), generator=gen)
    pos = (users * 2 + torch.randint(0, 3, (BATCH,), generator=gen)) % N_ITEMS
    neg = torch.randint(0, N_ITEMS, (BATCH,), generator=gen)
    return users, pos, neg


def fgsm_delta(grad):
    return EPS * F.normalize(grad, dim=-1)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(12)
model = MF()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for step in range(STEPS):
    users, pos, neg = triples(gen)
    u, i, j = model.user(users), model.item(pos), model.item(neg)
    clean = bpr(u, i, j)
    g_u, g_i, g_j = torch.autograd.grad(clean, (u, i, j), retain_graph=True)
    d_u, d_i, d_j = fgsm_delta(g_u), fgsm_delta(g_i), fgsm_delta(g_j)
    adversarial = bpr(u + d_u, i + d_i, j + d_j)
    loss = clean + ADV_WEIGHT * adversarial
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} clean {clean.item():.4f} adversarial {adversarial.item():.4f}")

with torch.no_grad():
    print(f"param checksum {sum(p.sum() for p in model.parameters()).item():.4f}")
