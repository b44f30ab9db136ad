"""Second-order MAML on sinusoid regression (Finn et al., 2017).

The inner-loop gradients are taken with create_graph=True so the meta-loss
backpropagates through the adaptation steps; every task builds a fresh
graph from the meta-parameters, so nothing is backwarded twice."""
import math

import torch
import torch.nn as nn
from torch.func import functional_call

INNER_STEPS, INNER_LR, META_BATCH = 2, 0.02, 4


def sample_task(g):
    amp = 0.5 + 4.5 * torch.rand(1, generator=g)
    phase = math.pi * torch.rand(1, generator=g)

    def draw(n):
        x = 10 * torch.rand(n, 1, generator=g) - 5
        return x, amp * torch.sin(x + phase)

    return draw


def adapt(net, params, x, y):
    for _ in range(INNER_STEPS):
        loss = nn.functional.mse_loss(functional_call(net, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {name: p - INNER_LR * gr for (name, p), gr in zip(params.items(), grads)}
    return params


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    net = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
    meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)

    for it in range(6):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(META_BATCH):
            draw = sample_task(g)
            x_s, y_s = draw(10)
            x_q, y_q = draw(10)
            fast = adapt(net, dict(net.named_parameters()), x_s, y_s)
            meta_loss = meta_loss + nn.functional.mse_loss(functional_call(net, fast, (x_q,)), y_q)
        meta_loss = meta_loss / META_BATCH
        meta_loss.backward()
        meta_opt.step()
        print(f"meta-iter {it} query loss {meta_loss.item():.4f}")

    checksum = sum(p.double().sum().item() for p in net.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
