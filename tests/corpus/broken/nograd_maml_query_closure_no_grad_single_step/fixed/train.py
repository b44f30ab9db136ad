"""MAML on sine-wave regression. Every task gets a query_loss(params) closure over its query
set; the query loss before adaptation and after the first inner step is recorded for
logging under torch.no_grad(), and the later inner steps keep their graph for the
meta-update. The meta-loss is the query loss after the last inner step."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
INNER_STEPS, INNER_LR, N_TASKS = 1, 0.05, 4


def functional_forward(x, params):
    w1, b1, w2, b2, w3, b3 = params
    h = torch.relu(F.linear(x, w1, b1))
    h = torch.relu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)


def sample_task(n_support=5, n_query=10):
    amplitude = 0.1 + 4.9 * torch.rand(1)
    phase = math.pi * torch.rand(1)
    x = 10 * torch.rand(n_support + n_query, 1) - 5
    y = amplitude * torch.sin(x + phase)
    return (x[:n_support], y[:n_support]), (x[n_support:], y[n_support:])


def make_query_loss(x_q, y_q):
    def query_loss(params):
        return F.mse_loss(functional_forward(x_q, params), y_q)
    return query_loss


def inner_update(params, x_s, y_s):
    loss = F.mse_loss(functional_forward(x_s, params), y_s)
    grads = torch.autograd.grad(loss, params, create_graph=True)
    return [p - INNER_LR * g for p, g in zip(params, grads)]


net = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
params = list(net.parameters())
meta_optimizer = torch.optim.Adam(params, lr=1e-3)

for iteration in range(5):
    losses_q = [0.0] * (INNER_STEPS + 1)
    for _ in range(N_TASKS):
        (x_s, y_s), (x_q, y_q) = sample_task()
        query_loss = make_query_loss(x_q, y_q)
        with torch.no_grad():
            losses_q[0] += query_loss(params)
        fast_weights = inner_update(params, x_s, y_s)
        losses_q[1] += query_loss(fast_weights)
        for k in range(1, INNER_STEPS):
            fast_weights = inner_update(fast_weights, x_s, y_s)
            losses_q[k + 1] += query_loss(fast_weights)
    meta_loss = losses_q[-1] / N_TASKS
    meta_optimizer.zero_grad()
    meta_loss.backward()
    meta_optimizer.step()
    print(f"iteration {iteration} query mse before {losses_q[0].item() / N_TASKS:.4f} "
          f"after {meta_loss.item():.4f}")
