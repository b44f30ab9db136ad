"""Deep ensemble for house-price regression on a synthetic table: each member is an MLP with a
Gaussian (mean, log-variance) head trained on its own bootstrap resample, and the ensemble
reports its predictive mean and spread. The single-model version of this script built one
`model`; it is still built to print the per-member parameter count."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_ROWS, N_FEATURES, N_MEMBERS, STEPS, BATCH, LR = 200, 6, 3, 6, 32, 1e-2


@dataclass
class Member:
    net: nn.Module
    optimizer: torch.optim.Optimizer
    rows: torch.Tensor
    losses: list = field(default_factory=list)


def housing_table(n):
    x = torch.randn(n, N_FEATURES)
    price = 3.0 + 1.2 * x[:, 0] - 0.8 * x[:, 1] + 0.5 * x[:, 2] * x[:, 3]
    noise = 0.2 + 0.3 * torch.sigmoid(x[:, 4])
    return x, price + noise * torch.randn(n)


def make_mlp():
    return nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                         nn.Linear(32, 2))


def gaussian_nll(out, y):
    mean, log_var = out[:, 0], out[:, 1].clamp(-6, 6)
    return F.gaussian_nll_loss(mean, y, log_var.exp())


x, y = housing_table(N_ROWS)
model = make_mlp()
print(f"parameters per member {sum(p.numel() for p in model.parameters())}")

members = []
for k in range(N_MEMBERS):
    torch.manual_seed(100 + k)
    net = make_mlp()
    bootstrap = torch.randint(0, N_ROWS, (N_ROWS,))
    members.append(Member(net=net, optimizer=torch.optim.Adam(net.parameters(), lr=LR),
                          rows=bootstrap))

for step in range(STEPS):
    for member in members:
        idx = member.rows[torch.randint(0, N_ROWS, (BATCH,))]
        loss = gaussian_nll(member.net(x[idx]), y[idx])
        member.optimizer.zero_grad()
        loss.backward()
        member.optimizer.step()
        member.losses.append(loss.item())
    print(f"step {step} member nll " + " ".join(f"{m.losses[-1]:.4f}" for m in members))

with torch.no_grad():
    means = torch.stack([m.net(x)[:, 0] for m in members])
print(f"ensemble rmse {(means.mean(0) - y).pow(2).mean().sqrt().item():.4f} "
      f"mean spread {means.std(0).mean().item():.4f}")
