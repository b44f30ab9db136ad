"""FixMatch on a two-moons-like tabular problem with 16 labelled and 256 unlabelled points.
Pseudo-labels come from the weakly augmented view under torch.no_grad() (softmax, max,
argmax, confidence threshold), and the loss on the strongly augmented view is trained
towards them; an EMA copy of the classifier is updated under torch.no_grad() for
evaluation."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

THRESHOLD, LAMBDA_U, EMA_DECAY = 0.6, 1.0, 0.9


def two_moons(n):
    t = torch.rand(n) * math.pi
    label = torch.randint(0, 2, (n,))
    x = torch.where(label == 0, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(label == 0, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.1 * torch.randn(n, 2), label


def weak(x):
    return x + 0.05 * torch.randn_like(x)


def strong(x):
    keep = (torch.rand(x.size(0), 1) > 0.2).float()
    return x * (0.8 + 0.4 * torch.rand_like(x)) * keep + 0.2 * torch.randn_like(x)


torch.manual_seed(0)
x_lab, y_lab = two_moons(16)
x_unlab, _ = two_moons(256)
x_test, y_test = two_moons(200)
model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
ema_model = copy.deepcopy(model).requires_grad_(False)
optimizer = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9, nesterov=True)

for step in range(8):
    batch = x_unlab[torch.randint(0, 256, (64,))]
    loss_x = F.cross_entropy(model(weak(x_lab)), y_lab)
    with torch.no_grad():
        probs = torch.softmax(model(weak(batch)), dim=1)
        confidence, pseudo = probs.max(dim=1)
        mask = confidence.ge(THRESHOLD).float()
        agree = (probs.argmax(1) == pseudo).all().item()
    loss_u = (F.cross_entropy(model(strong(batch)), pseudo, reduction="none") * mask).mean()
    loss = loss_x + LAMBDA_U * loss_u
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for p_ema, p in zip(ema_model.parameters(), model.parameters()):
            p_ema.mul_(EMA_DECAY).add_(p, alpha=1 - EMA_DECAY)
    print(f"step {step} loss_x {loss_x.item():.6f} loss_u {loss_u.item():.6f} "
          f"mask {mask.mean().item():.3f} consistent {agree}")

with torch.no_grad():
    acc = (ema_model(x_test).argmax(1) == y_test).float().mean().item()
print(f"ema test accuracy {acc:.3f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
