"""Meta-SGD on few-shot sine regression: per-parameter inner learning rates are meta-learned
alongside the initialisation. Two second-order inner steps (autograd.grad with
create_graph=True) through torch.func.functional_call; each task's query loss is
backwarded on its own and the meta-gradients accumulate before one meta step. A first-order
evaluation adapts with the learned rates without building a meta-graph."""
import torch
import torch.nn as nn
from torch.func import functional_call

INNER_STEPS, TASKS, K = 2, 4, 8


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(),
                                 nn.Linear(40, 1))

    def forward(self, x):
        return self.net(x)


def task(gen):
    amp = torch.rand(1, generator=gen) * 4.9 + 0.1
    phase = torch.rand(1, generator=gen) * torch.pi
    x = torch.rand(2 * K, 1, generator=gen) * 10 - 5
    y = amp * torch.sin(x + phase)
    return (x[:K], y[:K]), (x[K:], y[K:])


def adapt(model, log_lrs, x, y, create_graph):
    params = dict(model.named_parameters())
    for _ in range(INNER_STEPS):
        loss = nn.functional.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=create_graph)
        params = {name: p - log_lrs[name.replace(".", "_")].exp() * g
                  for (name, p), g in zip(params.items(), grads)}
    return params


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = Regressor()
    log_lrs = nn.ParameterDict({name.replace(".", "_"): nn.Parameter(torch.full_like(p, -4.0))
                                for name, p in model.named_parameters()})
    meta_opt = torch.optim.Adam([*model.parameters(), *log_lrs.parameters()], lr=1e-3)

    for it in range(6):
        meta_opt.zero_grad()
        total = 0.0
        for _ in range(TASKS):
            (xs, ys), (xq, yq) = task(gen)
            fast = adapt(model, log_lrs, xs, ys, create_graph=True)
            query_loss = nn.functional.mse_loss(functional_call(model, fast, (xq,)), yq)
            (query_loss / TASKS).backward()
            total += query_loss.item() / TASKS
        meta_opt.step()
        print(f"meta-iter {it} query mse {total:.5f}")

    (xs, ys), (xq, yq) = task(gen)
    fast = adapt(model, log_lrs, xs, ys, create_graph=False)
    with torch.no_grad():
        eval_mse = nn.functional.mse_loss(functional_call(model, fast, (xq,)), yq).item()
    print(f"eval query mse {eval_mse:.5f}")
    checksum = sum(p.sum().item() for p in [*model.parameters(), *log_lrs.parameters()])
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
