"""Learning to Reweight Examples (Ren et al., 2018) for a churn classifier whose training
labels are 30% flipped, with a small trusted validation set.

Every step: a virtual SGD step on per-example weights eps (create_graph=True), the clean
validation loss at the virtual weights, its gradient w.r.t. eps (second order) gives the
example weights, and the real step uses them on a fresh forward."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

N_FEAT, INNER_LR = 8, 0.1


def churn_data(n, noise, gen):
    x = torch.randn(n, N_FEAT, generator=gen)
    y = ((x[:, 0] + 0.8 * x[:, 1] - 0.5 * x[:, 2] * x[:, 3]) > 0).float()
    flip = torch.rand(n, generator=gen) < noise
    return x, torch.where(flip, 1 - y, y)


def reweight(model, xb, yb, x_val, y_val):
    params = dict(model.named_parameters())
    eps = torch.zeros(len(xb), requires_grad=True)
    logits = functional_call(model, params, (xb,)).squeeze(-1)
    inner = (eps * F.binary_cross_entropy_with_logits(logits, yb, reduction="none")).sum()
    grads = torch.autograd.grad(inner, list(params.values()), create_graph=True)
    virtual = {k: p - INNER_LR * g for (k, p), g in zip(params.items(), grads)}
    val_logits = functional_call(model, virtual, (x_val,)).squeeze(-1)
    val_loss = F.binary_cross_entropy_with_logits(val_logits, y_val)
    (grad_eps,) = torch.autograd.grad(val_loss, eps)
    w = torch.clamp(-grad_eps, min=0)
    return w / w.sum() if w.sum() > 0 else w


def main(steps=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    x_train, y_train = churn_data(192, 0.3, gen)
    x_val, y_val = churn_data(32, 0.0, gen)
    model = nn.Sequential(nn.Linear(N_FEAT, 24), nn.Tanh(), nn.Linear(24, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=INNER_LR, momentum=0.9)
    for step in range(steps):
        idx = torch.arange(step * 32, (step + 1) * 32)
        xb, yb = x_train[idx], y_train[idx]
        w = reweight(model, xb, yb, x_val, y_val)
        per_example = F.binary_cross_entropy_with_logits(model(xb).squeeze(-1), yb,
                                                          reduction="none")
        loss = (w * per_example).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            val_acc = ((model(x_val).squeeze(-1) > 0).float() == y_val).float().mean()
        print(f"step {step}: weighted loss {loss.item():.4f} kept {(w > 0).sum().item()}/32 "
              f"val acc {val_acc.item():.3f}")
    print(f"checksum {sum(p.sum() for p in model.parameters()).item():.6f}")


if __name__ == "__main__":
    main()
