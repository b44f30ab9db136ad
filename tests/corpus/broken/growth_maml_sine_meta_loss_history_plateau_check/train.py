"""Second-order MAML on sine-wave regression with a functional MLP: each meta-batch
adapts to 4 tasks with one inner SGD step and updates the initialisation from the query
losses. A plateau check on the recent meta-losses halves the meta learning rate."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
INNER_LR, META_ITERS, TASKS_PER_BATCH, K_SHOT, WINDOW = 0.05, 10, 4, 10, 3


def sample_task():
    amplitude = 0.5 + 4.5 * torch.rand(()).item()
    phase = math.pi * torch.rand(()).item()

    def draw(n):
        x = 10 * torch.rand(n, 1) - 5
        return x, amplitude * torch.sin(x + phase)

    return draw


def adapted_query_loss(net, params, task):
    x_s, y_s = task(K_SHOT)
    support_loss = F.mse_loss(functional_call(net, params, (x_s,)), y_s)
    grads = torch.autograd.grad(support_loss, list(params.values()), create_graph=True)
    fast = {name: p - INNER_LR * g for (name, p), g in zip(params.items(), grads)}
    x_q, y_q = task(K_SHOT)
    return F.mse_loss(functional_call(net, fast, (x_q,)), y_q)


net = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)
meta_loss_history = []
best = float("inf")

for it in range(META_ITERS):
    params = dict(net.named_parameters())
    meta_loss = sum(adapted_query_loss(net, params, sample_task())
                    for _ in range(TASKS_PER_BATCH)) / TASKS_PER_BATCH
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    meta_loss_history.append(meta_loss)
    recent = torch.stack(meta_loss_history[-WINDOW:]).mean().item()
    if len(meta_loss_history) >= WINDOW and recent > best:
        for group in meta_opt.param_groups:
            group["lr"] *= 0.5
    best = min(best, recent)
    print(f"meta iter {it} query mse {meta_loss.item():.4f} recent {recent:.4f} "
          f"lr {meta_opt.param_groups[0]['lr']:.2e}")
print(f"checksum {sum(p.sum().item() for p in net.parameters()):.4f}")
