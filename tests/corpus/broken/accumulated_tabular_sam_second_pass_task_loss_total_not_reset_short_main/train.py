"""Multi-label credit-risk model (default / late payment / early payoff) trained with
Sharpness-Aware Minimisation: one forward-backward at the weights, a step up the gradient by
rho, a second forward-backward there, then the base SGD step from the original weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TASKS = ["default", "late_payment", "early_payoff"]
N_FEATURES, BATCH, RHO = 10, 32, 0.05


def loan_batch(n):
    x = torch.randn(n, N_FEATURES)
    risk = x[:, 0] - 0.5 * x[:, 1] + 0.3 * x[:, 2] * x[:, 3]
    y = torch.stack([risk > 0.8, risk > 0.0, x[:, 4] > 0.5], 1).float()
    return x, y


@torch.no_grad()
def ascend(params, rho):
    norm = torch.norm(torch.stack([p.grad.norm() for p in params if p.grad is not None]))
    eps = []
    for p in params:
        e = torch.zeros_like(p) if p.grad is None else p.grad * (rho / (norm + 1e-12))
        p.add_(e)
        eps.append(e)
    return eps


@torch.no_grad()
def descend_back(params, eps):
    for p, e in zip(params, eps):
        p.sub_(e)


def main(steps=5):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, len(TASKS)))
    params = list(model.parameters())
    optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
    task_sums = [0.0] * len(TASKS)
    for step in range(steps):
        x, y = loan_batch(BATCH)

        # first pass: gradient at w
        out = model(x)
        loss = 0.0
        for t in range(len(TASKS)):
            loss_t = F.binary_cross_entropy_with_logits(out[:, t], y[:, t])
            loss += loss_t
            task_sums[t] += loss_t.item()
        optimizer.zero_grad()
        loss.backward()
        eps = ascend(params, RHO)

        # second pass: gradient at w + eps
        optimizer.zero_grad()
        out = model(x)
        for t in range(len(TASKS)):
            loss_t = F.binary_cross_entropy_with_logits(out[:, t], y[:, t])
            loss += loss_t
        loss.backward()
        descend_back(params, eps)
        optimizer.step()
        print(f"step {step}: sharp loss {loss.item():.4f}")
    return {name: s / steps for name, s in zip(TASKS, task_sums)}


if __name__ == "__main__":
    print(main())
