# Second-order MAML on sinusoid regression.  The inner loop adapts a copy of
# the weights with torch.autograd.grad(create_graph=True) so the outer loss
# differentiates through the adaptation.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)

net = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)
INNER_LR, INNER_STEPS, TASKS, K = 0.05, 2, 3, 10


def sample_task():
    amp = 0.5 + 4.5 * torch.rand(1, generator=gen).item()
    phase = math.pi * torch.rand(1, generator=gen).item()

    def draw(n):
        x = torch.rand(n, 1, generator=gen) * 10 - 5
        return x, amp * torch.sin(x + phase)

    return draw


def adapt(params, x, y):
    for _ in range(INNER_STEPS):
        loss = F.mse_loss(functional_call(net, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {n: p - INNER_LR * g for (n, p), g in zip(params.items(), grads)}
    return params


for meta_step in range(4):
    meta_opt.zero_grad()
    outer_total = 0.0
    for _ in range(TASKS):
        draw = sample_task()
        xs, ys = draw(K)
        xq, yq = draw(K)
        fast = adapt(dict(net.named_parameters()), xs, ys)
        outer = F.mse_loss(functional_call(net, fast, (xq,)), yq) / TASKS
        outer.backward()
        outer_total += outer.item()
    meta_opt.step()
    print(f"meta step {meta_step} query mse {outer_total:.4f}")

print("checksum", round(sum(p.sum().item() for p in net.parameters()), 4))
