"""MAML on 1-D function-regression task families (sine, line, parabola) with
a difficulty-aware task sampler: each family keeps an exponential moving
average of its post-adaptation query loss, and harder families are sampled
more often."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

FAMILIES = ["sine", "line", "parabola"]
INNER_LR, META_LR, N_SUPPORT, N_QUERY = 0.05, 1e-3, 10, 10


def make_task(family, g):
    a = torch.rand(1, generator=g).item() * 2 + 0.5
    b = torch.rand(1, generator=g).item() * 2 - 1
    fn = {"sine": lambda x: a * torch.sin(x + b),
          "line": lambda x: a * x + b,
          "parabola": lambda x: 0.25 * a * (x - b) ** 2 - 1}[family]
    xs = torch.rand(N_SUPPORT + N_QUERY, 1, generator=g) * 2 * math.pi - math.pi
    ys = fn(xs)
    return (xs[:N_SUPPORT], ys[:N_SUPPORT]), (xs[N_SUPPORT:], ys[N_SUPPORT:])


def adapt_and_evaluate(model, support, query):
    params = dict(model.named_parameters())
    inner = F.mse_loss(functional_call(model, params, (support[0],)), support[1])
    grads = torch.autograd.grad(inner, list(params.values()), create_graph=True)
    fast = {name: p - INNER_LR * gr for (name, p), gr in zip(params.items(), grads)}
    return F.mse_loss(functional_call(model, fast, (query[0],)), query[1])


def train(iterations=10, meta_batch=2):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(21)
    model = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(),
                          nn.Linear(40, 1))
    meta_opt = torch.optim.Adam(model.parameters(), lr=META_LR)
    difficulty = {}

    for it in range(iterations):
        scores = torch.stack([difficulty.get(f, torch.tensor(1.0)) for f in FAMILIES])
        probs = scores / scores.sum()
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(meta_batch):
            family = FAMILIES[torch.multinomial(probs, 1, generator=g).item()]
            query_loss = adapt_and_evaluate(model, *make_task(family, g))
            difficulty[family] = 0.9 * difficulty.get(family, query_loss) + 0.1 * query_loss
            meta_loss = meta_loss + query_loss / meta_batch
        meta_loss.backward()
        meta_opt.step()
        print(f"iter {it} meta-loss {meta_loss.item():.4f} "
              + " ".join(f"{f}={float(difficulty.get(f, 1.0)):.3f}" for f in FAMILIES))
    return model


if __name__ == "__main__":
    trained = train()
    print("checksum", round(sum(p.sum().item() for p in trained.parameters()), 4))
