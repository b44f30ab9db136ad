"""TRADES adversarial training of a small MLP on a two-moons-like 2-D problem lifted to 10
dims. The attack is an L-inf PGD on the KL between clean and adversarial predictions."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
EPS, STEP, PGD_STEPS, BETA = 0.1, 0.03, 3, 6.0
PROJ = torch.randn(2, 10) / math.sqrt(2)


def moons(n):
    t = math.pi * torch.rand(n)
    y = torch.randint(0, 2, (n,))
    pts = torch.stack([torch.cos(t), torch.sin(t)], 1)
    pts = torch.where(y[:, None] == 1, torch.stack([1 - pts[:, 0], 0.5 - pts[:, 1]], 1), pts)
    return (pts + 0.05 * torch.randn_like(pts)) @ PROJ, y


def pgd_kl(model, x, p_clean):
    x_adv = x + 0.001 * torch.randn_like(x)
    for _ in range(PGD_STEPS):
        x_adv.requires_grad_(True)
        kl = F.kl_div(F.log_softmax(model(x_adv), 1), p_clean, reduction="batchmean")
        grad, = torch.autograd.grad(kl, x_adv)
        x_adv = x_adv.detach() + STEP * grad.sign()
        x_adv = torch.min(torch.max(x_adv, x - EPS), x + EPS)
    return x_adv.detach()


def trades_loss(model, x, y):
    model.eval()
    with torch.no_grad():
        p_attack = F.softmax(model(x), 1)
    x_adv = pgd_kl(model, x, p_attack)
    model.train()
    logits_clean = model(x)
    p_clean = F.softmax(logits_clean, 1)
    p_clean.clamp_(min=1e-6)
    natural = F.cross_entropy(logits_clean, y)
    robust = F.kl_div(F.log_softmax(model(x_adv), 1), p_clean, reduction="batchmean")
    return natural + BETA * robust, natural, robust


def main():
    model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                          nn.Linear(64, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(5):
        x, y = moons(64)
        loss, natural, robust = trades_loss(model, x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} natural {natural.item():.4f} "
              f"robust {robust.item():.4f}")


if __name__ == "__main__":
    main()
