"""Meta-SGD on sine-wave regression: the initial weights and a per-parameter inner learning
rate (kept positive through a softplus) are meta-learned with second-order MAML updates."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

TASKS_PER_BATCH, K_SHOT, INNER_STEPS = 4, 5, 1


def sample_task():
    amplitude, phase = 0.5 + 4.5 * torch.rand(1), math.pi * torch.rand(1)
    x = 10 * torch.rand(2 * K_SHOT, 1) - 5
    y = amplitude * torch.sin(x + phase)
    return x[:K_SHOT], y[:K_SHOT], x[K_SHOT:], y[K_SHOT:]


def adapt(model, params, lrs, x, y):
    fast = dict(params)
    for _ in range(INNER_STEPS):
        loss = F.mse_loss(functional_call(model, fast, (x,)), y)
        grads = torch.autograd.grad(loss, list(fast.values()), create_graph=True)
        fast = {name: w - lrs[name] * g for (name, w), g in zip(fast.items(), grads)}
    return fast


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
    params = dict(model.named_parameters())
    init = math.log(math.expm1(0.01))
    raw_lrs = {name: nn.Parameter(torch.full_like(w, init)) for name, w in params.items()}
    meta_opt = torch.optim.Adam([*params.values(), *raw_lrs.values()], lr=1e-3)

    lrs = {name: F.softplus(raw) for name, raw in raw_lrs.items()}
    for it in range(3):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(TASKS_PER_BATCH):
            xs, ys, xq, yq = sample_task()
            fast = adapt(model, params, lrs, xs, ys)
            meta_loss = meta_loss + F.mse_loss(functional_call(model, fast, (xq,)), yq)
        meta_loss = meta_loss / TASKS_PER_BATCH
        meta_loss.backward()
        meta_opt.step()
        print(f"meta-iteration {it} query mse {meta_loss.item():.4f}")


if __name__ == "__main__":
    main()
