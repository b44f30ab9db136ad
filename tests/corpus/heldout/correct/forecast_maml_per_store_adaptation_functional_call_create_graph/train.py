"""MAML for few-shot demand forecasting: each store is a task; the forecaster is adapted with
two inner SGD steps on the store's support windows (second-order, create_graph=True) through
torch.func.functional_call, and the meta-loss on the query windows updates the shared init."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

LOOKBACK, HORIZON = 8, 2


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LOOKBACK, hidden), nn.Tanh(), nn.Linear(hidden, HORIZON))

    def forward(self, x):
        return self.net(x)


def store_task(n_support=6, n_query=6):
    amp, phase, base = torch.rand(1) * 2 + 0.5, torch.rand(1) * 6.28, torch.rand(1) * 3
    start = torch.rand(n_support + n_query, 1) * 20
    t = start + torch.arange(LOOKBACK + HORIZON, dtype=torch.float32)
    series = base + amp * torch.sin(t * 0.9 + phase) + 0.05 * torch.randn_like(t)
    x, y = series[:, :LOOKBACK], series[:, LOOKBACK:]
    return (x[:n_support], y[:n_support]), (x[n_support:], y[n_support:])


def adapt(model, params, support, inner_lr=0.05, inner_steps=2):
    x, y = support
    for _ in range(inner_steps):
        loss = F.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {name: p - inner_lr * g for (name, p), g in zip(params.items(), grads)}
    return params


def main(meta_steps=5, tasks_per_step=3):
    torch.manual_seed(0)
    model = Forecaster()
    meta_opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(meta_steps):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(tasks_per_step):
            support, (qx, qy) = store_task()
            fast = adapt(model, dict(model.named_parameters()), support)
            meta_loss = meta_loss + F.mse_loss(functional_call(model, fast, (qx,)), qy)
        meta_loss = meta_loss / tasks_per_step
        meta_loss.backward()
        meta_opt.step()
        print(f"meta step {step} query mse {meta_loss.item():.4f}")
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))


if __name__ == "__main__":
    main()
