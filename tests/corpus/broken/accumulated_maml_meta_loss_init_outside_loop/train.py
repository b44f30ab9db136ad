"""Second-order MAML on sinusoid regression, with fast weights handled through
torch.func.functional_call."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

INNER_LR, INNER_STEPS, TASKS_PER_BATCH, K_SHOT, META_ITERS = 0.05, 2, 3, 5, 4


def sample_task():
    amp, phase = 0.5 + 4.5 * torch.rand(1), math.pi * torch.rand(1)

    def draw(n):
        x = 10 * torch.rand(n, 1) - 5
        return x, amp * torch.sin(x + phase)
    return draw


def adapt(model, params, x, y):
    for _ in range(INNER_STEPS):
        support_loss = F.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(support_loss, list(params.values()), create_graph=True)
        params = {name: p - INNER_LR * g for (name, p), g in zip(params.items(), grads)}
    return params


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)

meta_loss = 0.0
for it in range(META_ITERS):
    for _ in range(TASKS_PER_BATCH):
        draw = sample_task()
        (xs, ys), (xq, yq) = draw(K_SHOT), draw(K_SHOT)
        fast = adapt(model, dict(model.named_parameters()), xs, ys)
        query_loss = F.mse_loss(functional_call(model, fast, (xq,)), yq)
        meta_loss = meta_loss + query_loss / TASKS_PER_BATCH
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    print(f"meta-iter {it}: query mse {meta_loss.item():.4f}")
