"""Two-layer tanh classifier on synthetic rings, epochs around batches; a shared debugging
helper (debug_utils.log_saved) reports hidden-unit saturation once per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from debug_utils import log_saved

torch.manual_seed(0)


def make_rings(n):
    radius = torch.rand(n) * 2
    angle = torch.rand(n) * 6.2832
    x = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return x, (radius > 1).long()


fc1, fc2 = nn.Linear(2, 16), nn.Linear(16, 2)
optimizer = torch.optim.SGD([*fc1.parameters(), *fc2.parameters()], lr=0.2, momentum=0.9)
batches = [make_rings(32) for _ in range(3)]

for epoch in range(2):
    for i, (x, y) in enumerate(batches):
        hidden = torch.tanh(fc1(x))
        loss = F.cross_entropy(fc2(hidden), y)
        optimizer.zero_grad()
        if i == len(batches) - 1:
            log_saved(hidden, "hidden")
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
