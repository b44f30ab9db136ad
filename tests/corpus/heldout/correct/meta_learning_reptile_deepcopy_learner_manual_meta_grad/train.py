"""Reptile on few-shot 2-D point classification tasks. Each task adapts a
deep copy of the meta-model with its own SGD optimizer; the meta-update
writes (theta - theta_task) into the meta-parameters' .grad and lets Adam
take the step."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

INNER_STEPS, N_WAY, SHOTS = 4, 2, 8


class Learner(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, N_WAY)

    def forward(self, x):
        return self.head(self.body(x))


def task(g):
    centers = 3 * torch.randn(N_WAY, 2, generator=g)
    y = torch.arange(N_WAY).repeat_interleave(SHOTS)
    x = centers[y] + torch.randn(len(y), 2, generator=g)
    return x, y


def main(meta_iters=6):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(10)
    meta_model = Learner()
    meta_opt = torch.optim.Adam(meta_model.parameters(), lr=0.01)
    for it in range(meta_iters):
        x, y = task(g)
        learner = copy.deepcopy(meta_model)
        inner_opt = torch.optim.SGD(learner.parameters(), lr=0.1)
        for _ in range(INNER_STEPS):
            loss = F.cross_entropy(learner(x), y)
            inner_opt.zero_grad()
            loss.backward()
            inner_opt.step()
        meta_opt.zero_grad()
        with torch.no_grad():
            for p, q in zip(meta_model.parameters(), learner.parameters()):
                p.grad = p - q
        meta_opt.step()
        print(f"meta-iter {it} task loss after adaptation {loss.item():.4f}")
    print("checksum", round(sum(p.sum().item() for p in meta_model.parameters()), 4))


if __name__ == "__main__":
    main()
