"""Classifier trained with an input-gradient penalty (double backprop): the gradient of
the loss w.r.t. the inputs is taken with torch.autograd.grad(create_graph=True) and its
norm added to the loss. A saliency map is logged once with a plain autograd.grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)
model = nn.Sequential(nn.Linear(12, 32), nn.Softplus(), nn.Linear(32, 32), nn.Softplus(),
                      nn.Linear(32, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
X = torch.randn(48, 12)
Y = (X[:, 0] + X[:, 1] > 0).long()
PENALTY = 0.1

for epoch in range(2):
    for x, y in zip(X.split(16), Y.split(16)):
        x = x.clone().requires_grad_(True)
        per_sample = F.cross_entropy(model(x), y, reduction="none")
        ce = per_sample.mean()
        (grad_x,) = torch.autograd.grad(per_sample.sum(), x, create_graph=True)
        penalty = grad_x.pow(2).sum(dim=1).mean()
        loss = ce + PENALTY * penalty
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} ce {ce.item():.6f} penalty {penalty.item():.6f} loss {loss.item():.6f}")

probe = X[:4].clone().requires_grad_(True)
score = model(probe).gather(1, Y[:4, None]).sum()
saliency = torch.autograd.grad(score, probe)[0].abs()
print(f"top saliency features {saliency.mean(0).topk(2).indices.tolist()}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
