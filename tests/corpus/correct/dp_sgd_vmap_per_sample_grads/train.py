"""Differentially private training (DP-SGD) of a credit-default classifier.

Per-example gradients are computed with torch.func.vmap(torch.func.grad(...)) over a
functional_call of the model, using detached copies of the parameters. Each example's
gradient is clipped, the sum gets Gaussian noise, and the result is written into .grad
before a plain optimizer step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(27)
CLIP, NOISE_MULT, BATCH = 1.0, 0.6, 16


def make_data(n=96):
    income = torch.randn(n, 1)
    debt = torch.randn(n, 1)
    age = torch.rand(n, 1)
    x = torch.cat([income, debt, age, income * debt, torch.randn(n, 2)], dim=1)
    y = ((debt - income + 0.3 * torch.randn(n, 1)) > 0.2).float().squeeze(1)
    return x, y


model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
noise_gen = torch.Generator().manual_seed(99)


def example_loss(params, buffers, x, y):
    logit = functional_call(model, (params, buffers), (x.unsqueeze(0),)).squeeze()
    return F.binary_cross_entropy_with_logits(logit, y)


per_example_grads = vmap(grad(example_loss), in_dims=(None, None, 0, 0))


def dp_step(x, y):
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}
    grads = per_example_grads(params, buffers, x, y)
    norms = torch.sqrt(sum(g.flatten(1).pow(2).sum(1) for g in grads.values()))
    scale = (CLIP / (norms + 1e-6)).clamp(max=1.0)
    for name, p in model.named_parameters():
        clipped = (grads[name] * scale.view(-1, *[1] * p.dim())).sum(0)
        noise = torch.randn(p.shape, generator=noise_gen) * NOISE_MULT * CLIP
        p.grad = (clipped + noise) / x.shape[0]
    optimizer.step()
    return norms.mean().item(), (scale < 1).float().mean().item()


x_all, y_all = make_data()
for step in range(6):
    x, y = x_all[step * BATCH:(step + 1) * BATCH], y_all[step * BATCH:(step + 1) * BATCH]
    mean_norm, frac_clipped = dp_step(x, y)
    with torch.no_grad():
        eval_loss = F.binary_cross_entropy_with_logits(model(x_all).squeeze(1), y_all).item()
    print(f"step {step} mean per-example |g| {mean_norm:.6f} clipped {frac_clipped:.3f} "
          f"eval loss {eval_loss:.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
