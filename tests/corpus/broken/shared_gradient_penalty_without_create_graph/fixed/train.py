"""Gradient penalty computed with torch.autograd.grad but without create_graph=True: the
grad call frees the critic's graph that the loss then backwards."""
import torch, torch.nn as nn
torch.manual_seed(0)
D = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(D.parameters(), 1e-3)
for step in range(3):
    real = torch.randn(8, 4, requires_grad=True)
    out = D(real)
    grads = torch.autograd.grad(out.sum(), real, create_graph=True)[0]
    penalty = (grads.norm(dim=1) - 1).pow(2).mean()
    loss = -out.mean() + 10 * penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
