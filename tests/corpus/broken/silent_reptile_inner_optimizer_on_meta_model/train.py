"""Reptile on sine-wave regression: for each task a copy of the meta-model is fine-tuned
for a few SGD steps, then the meta-weights move towards the adapted weights."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
INNER_STEPS, INNER_LR, META_LR, META_ITERS = 5, 0.02, 0.5, 4


class SineTask:
    def __init__(self):
        self.amplitude = 0.5 + 4.5 * torch.rand(1).item()
        self.phase = math.pi * torch.rand(1).item()

    def sample(self, n):
        x = 10 * torch.rand(n, 1) - 5
        return x, self.amplitude * torch.sin(x + self.phase)


def adapt(meta_model, task):
    """Fine-tune a copy of the meta-model on one task; returns it and its last loss."""
    fast = copy.deepcopy(meta_model)
    inner_opt = torch.optim.SGD(meta_model.parameters(), lr=INNER_LR)
    for _ in range(INNER_STEPS):
        x, y = task.sample(10)
        loss = F.mse_loss(fast(x), y)
        inner_opt.zero_grad()
        loss.backward()
        inner_opt.step()
    return fast, loss.item()


def reptile_update(meta_model, fast):
    with torch.no_grad():
        for p_meta, p_fast in zip(meta_model.parameters(), fast.parameters()):
            p_meta += META_LR * (p_fast - p_meta)


meta_model = nn.Sequential(nn.Linear(1, 40), nn.Tanh(), nn.Linear(40, 40), nn.Tanh(),
                           nn.Linear(40, 1))
for it in range(META_ITERS):
    task = SineTask()
    fast, inner_loss = adapt(meta_model, task)
    reptile_update(meta_model, fast)
    print(f"meta iter {it} inner loss {inner_loss:.4f}")
print(f"meta checksum {sum(p.sum().item() for p in meta_model.parameters()):.4f}")
