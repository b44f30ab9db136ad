"""Group DRO on a synthetic credit-approval table: the loss is a weighted sum of per-group
losses (groups = region x age band), and the group weights are updated online with an
exponentiated-gradient step towards the groups that currently do worst, so the minority
groups are not ignored."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, N_GROUPS, BATCH, ETA = 6, 4, 48, 0.5


def make_table(n, gen):
    x = torch.randn(n, N_FEATURES, generator=gen)
    group = torch.multinomial(torch.tensor([0.55, 0.25, 0.15, 0.05]), n, replacement=True,
                              generator=gen)
    shift = torch.tensor([0.0, 0.6, -0.6, 1.2])[group]
    logit = 1.1 * x[:, 0] - 0.7 * x[:, 1] + shift * x[:, 2]
    y = (torch.rand(n, generator=gen) < torch.sigmoid(logit)).float()
    return x, group, y


def group_losses(logits, y, group):
    """One mean BCE per group present in the batch (each keeps its graph)."""
    per_row = F.binary_cross_entropy_with_logits(logits, y, reduction="none")
    present = [g for g in range(N_GROUPS) if (group == g).any()]
    return present, torch.stack([per_row[group == g].mean() for g in present])


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    x, group, y = make_table(6 * BATCH, gen)
    model = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ReLU(), nn.Linear(16, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    log_q = [0.0] * N_GROUPS
    worst_total = 0.0
    for step in range(6):
        sl = slice(step * BATCH, (step + 1) * BATCH)
        logits = model(x[sl]).squeeze(1)
        present, losses = group_losses(logits, y[sl], group[sl])
        for g, value in zip(present, losses.tolist()):
            log_q[g] += ETA * value
        z = max(log_q)
        q = torch.tensor([math.exp(v - z) for v in log_q])
        q = q / q.sum()
        weights = q[torch.tensor(present)]
        loss = (weights * losses).sum() / weights.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        worst = losses.max().item()
        worst_total += worst
        q_str = " ".join(f"{v:.3f}" for v in q.tolist())
        print(f"step {step} robust loss {loss.item():.4f} worst group {worst:.4f} q [{q_str}]")
    print(f"mean worst-group loss {worst_total / 6:.4f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
