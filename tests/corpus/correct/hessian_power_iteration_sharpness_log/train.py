"""Tabular regression that logs loss-landscape sharpness every step.

The top Hessian eigenvalue is estimated by power iteration with Hessian-vector products:
the first gradient is taken with create_graph=True, each HVP differentiates it again with
retain_graph=True, and the ordinary loss.backward() at the end frees everything before the
optimizer step.
"""
import torch
import torch.nn as nn

torch.manual_seed(5)
POWER_ITERS = 4


def make_data(n=64):
    x = torch.randn(n, 6)
    w_true = torch.tensor([0.5, -1.0, 2.0, 0.0, 0.3, -0.7])
    y = x @ w_true + 0.3 * torch.sin(3 * x[:, 0]) + 0.05 * torch.randn(n)
    return x, y.unsqueeze(1)


def top_eigenvalue(loss, params):
    grads = torch.autograd.grad(loss, params, create_graph=True)
    v = [torch.randn_like(p) for p in params]
    norm = torch.sqrt(sum((vi ** 2).sum() for vi in v))
    v = [vi / norm for vi in v]
    eig = torch.tensor(0.0)
    for _ in range(POWER_ITERS):
        hv = torch.autograd.grad(grads, params, grad_outputs=v, retain_graph=True)
        eig = sum((h * vi).sum() for h, vi in zip(hv, v))
        norm = torch.sqrt(sum((h ** 2).sum() for h in hv))
        v = [h / (norm + 1e-12) for h in hv]
    return eig.item()


def train():
    x, y = make_data()
    model = nn.Sequential(nn.Linear(6, 24), nn.Tanh(), nn.Linear(24, 1))
    params = list(model.parameters())
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
    history = []
    for step in range(6):
        idx = torch.arange(step * 8, step * 8 + 16) % len(x)
        loss = nn.functional.mse_loss(model(x[idx]), y[idx])
        sharpness = top_eigenvalue(loss, params)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append((loss.item(), sharpness))
        print(f"step {step} loss {loss.item():.6f} lambda_max {sharpness:.6f}")
    return model, history


if __name__ == "__main__":
    model, history = train()
    print(f"mean sharpness {sum(s for _, s in history) / len(history):.6f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
