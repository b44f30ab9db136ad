"""Second-order MAML on sinusoid regression with torch.func.functional_call:
inner-loop gradients are taken with create_graph=True, the fast weights are
plain tensors, and the query losses of a task batch are summed into one
meta-loss that is backwarded once per meta-iteration."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

INNER_STEPS, INNER_LR = 2, 0.02


def sine_task(g, n=10):
    amp = 0.5 + 4.5 * torch.rand(1, generator=g)
    phase = math.pi * torch.rand(1, generator=g)
    x = 10 * torch.rand(2 * n, 1, generator=g) - 5
    y = amp * torch.sin(x + phase)
    return (x[:n], y[:n]), (x[n:], y[n:])


def adapt(model, support):
    fast = dict(model.named_parameters())
    for _ in range(INNER_STEPS):
        loss = F.mse_loss(functional_call(model, fast, (support[0],)), support[1])
        grads = torch.autograd.grad(loss, tuple(fast.values()), create_graph=True)
        fast = {k: w - INNER_LR * gw for (k, w), gw in zip(fast.items(), grads)}
    return fast


def main(iterations=6, tasks_per_batch=3):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(4)
    model = nn.Sequential(nn.Linear(1, 40), nn.Tanh(), nn.Linear(40, 40), nn.Tanh(), nn.Linear(40, 1))
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    history = []
    for it in range(iterations):
        meta_loss = 0.0
        for _ in range(tasks_per_batch):
            support, query = sine_task(g)
            fast = adapt(model, support)
            meta_loss = meta_loss + F.mse_loss(functional_call(model, fast, (query[0],)), query[1])
        meta_loss = meta_loss / tasks_per_batch
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()
        history.append(meta_loss.item())
        print(f"iter {it} meta-loss {history[-1]:.4f}")
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
    return history


if __name__ == "__main__":
    main()
