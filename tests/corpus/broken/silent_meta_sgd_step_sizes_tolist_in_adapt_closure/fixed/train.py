"""Meta-SGD (Li et al. 2017) on few-shot sine regression: the meta-learner learns both the
initial weights and one inner-loop step size per weight tensor. make_adapter() returns a
closure that fine-tunes a functional copy of the network on a task's support set."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

K_SHOT, INNER_STEPS, TASKS_PER_BATCH = 10, 2, 4


class SineNet(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def sample_task():
    amplitude = 0.1 + 4.9 * torch.rand(())
    phase = math.pi * torch.rand(())

    def draw(n):
        x = 10 * torch.rand(n, 1) - 5
        return x, amplitude * torch.sin(x + phase)
    return draw


def make_adapter(model, log_step_sizes, inner_steps):
    names = [name for name, _ in model.named_parameters()]

    def adapt(x_support, y_support):
        params = dict(model.named_parameters())
        step_sizes = log_step_sizes.exp()  # one step size per weight tensor
        for _ in range(inner_steps):
            loss = F.mse_loss(functional_call(model, params, (x_support,)), y_support)
            grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
            params = {name: params[name] - lr * g for name, lr, g in zip(names, step_sizes, grads)}
        return params, step_sizes.tolist()

    return adapt


def main():
    torch.manual_seed(0)
    model = SineNet()
    n_tensors = len(list(model.parameters()))
    log_step_sizes = nn.Parameter(torch.full((n_tensors,), math.log(0.01)))
    meta_opt = torch.optim.Adam([
        {"params": model.parameters()},
        {"params": [log_step_sizes], "lr": 2e-2},
    ], lr=1e-3)
    adapt = make_adapter(model, log_step_sizes, INNER_STEPS)

    for it in range(6):
        meta_loss = 0.0
        for _ in range(TASKS_PER_BATCH):
            draw = sample_task()
            x_s, y_s = draw(K_SHOT)
            x_q, y_q = draw(K_SHOT)
            fast, step_sizes = adapt(x_s, y_s)
            meta_loss = meta_loss + F.mse_loss(functional_call(model, fast, (x_q,)), y_q)
        meta_loss = meta_loss / TASKS_PER_BATCH
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()
        sizes = " ".join(f"{s:.4f}" for s in step_sizes)
        print(f"iter {it} query mse {meta_loss.item():.4f} step sizes [{sizes}]")


if __name__ == "__main__":
    main()
