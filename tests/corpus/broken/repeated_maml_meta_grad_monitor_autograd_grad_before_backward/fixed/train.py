"""Second-order MAML on sinusoid regression, with fast weights through torch.func.
A MetaGradMonitor watches the size of the meta-gradient of each layer, to catch the
exploding meta-gradients second-order MAML is known for."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

INNER_LR, INNER_STEPS, META_BATCH, K_SHOT = 0.05, 2, 3, 10


class MetaGradMonitor:
    def __init__(self, named_params):
        self.names = [n for n, _ in named_params]
        self.params = [p for _, p in named_params]
        self.history = []

    def on_after_backward(self):
        norms = {n: p.grad.norm().item() for n, p in zip(self.names, self.params)}
        self.history.append(norms)
        return max(norms.values())


def sample_task():
    amp, phase = 0.5 + 4.5 * torch.rand(1), math.pi * torch.rand(1)
    def draw(n):
        x = 10 * torch.rand(n, 1) - 5
        return x, amp * torch.sin(x + phase)
    return draw


def adapt(model, params, x, y):
    for _ in range(INNER_STEPS):
        loss = F.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {n: p - INNER_LR * g for (n, p), g in zip(params.items(), grads)}
    return params


def main(meta_iters=4):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(),
                          nn.Linear(40, 1))
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    monitor = MetaGradMonitor(list(model.named_parameters()))
    for it in range(meta_iters):
        query_losses = []
        for _ in range(META_BATCH):
            draw = sample_task()
            (xs, ys), (xq, yq) = draw(K_SHOT), draw(K_SHOT)
            fast = adapt(model, dict(model.named_parameters()), xs, ys)
            query_losses.append(F.mse_loss(functional_call(model, fast, (xq,)), yq))
        meta_loss = torch.stack(query_losses).mean()
        meta_opt.zero_grad()
        meta_loss.backward()
        worst = monitor.on_after_backward()
        meta_opt.step()
        print(f"meta-iter {it} query mse {meta_loss.item():.4f} max meta-grad norm {worst:.4f}")
    return monitor.history


if __name__ == "__main__":
    main()
