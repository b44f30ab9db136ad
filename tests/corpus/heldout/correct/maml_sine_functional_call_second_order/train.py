"""Second-order MAML on sinusoid regression tasks. The inner loop adapts a functional copy of
the weights with torch.autograd.grad(..., create_graph=True) and torch.func.functional_call,
so the meta-gradient flows through the inner update into the original parameters."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(3)
INNER_LR, INNER_STEPS, META_BATCH, K_SHOT = 0.05, 2, 3, 10


def sample_task():
    amplitude = 0.5 + 4.5 * torch.rand(1)
    phase = math.pi * torch.rand(1)

    def draw(n):
        x = 10 * torch.rand(n, 1) - 5
        return x, amplitude * torch.sin(x + phase)

    return draw


def adapt(model, params, x, y):
    for _ in range(INNER_STEPS):
        loss = F.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {name: p - INNER_LR * g for (name, p), g in zip(params.items(), grads)}
    return params


model = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
meta_optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for iteration in range(5):
    meta_optimizer.zero_grad()
    meta_loss = 0.0
    for _ in range(META_BATCH):
        draw = sample_task()
        x_support, y_support = draw(K_SHOT)
        x_query, y_query = draw(K_SHOT)
        fast = adapt(model, dict(model.named_parameters()), x_support, y_support)
        query_loss = F.mse_loss(functional_call(model, fast, (x_query,)), y_query)
        (query_loss / META_BATCH).backward()
        meta_loss += query_loss.item() / META_BATCH
    meta_optimizer.step()
    print(f"iteration {iteration} meta loss {meta_loss:.5f}")

checksum = sum(p.double().sum().item() for p in model.parameters())
print(f"parameter checksum {checksum:.6f}")
