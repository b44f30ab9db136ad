"""Relativistic average GAN on a 2-D eight-Gaussians ring, with R1 and R2 penalties on D.

State (networks, optimizers, history) lives in a dict built by build_state(); the
generator loss needs D's logits on REAL data too, which are recomputed after the
discriminator's optimizer step instead of reusing the ones from the D step.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

GAMMA, BATCH = 1.0, 32


def ring_batch(n):
    k = torch.randint(0, 8, (n,)).float() * (2 * math.pi / 8)
    return torch.stack([k.cos(), k.sin()], 1) * 2 + 0.05 * torch.randn(n, 2)


def build_state(seed=13):
    torch.manual_seed(seed)
    G = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
    D = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
    return {
        "G": G, "D": D,
        "opt_g": torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.9)),
        "opt_d": torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9)),
        "history": [],
    }


def gradient_sq_norm(logits, inputs):
    (grad,) = torch.autograd.grad(logits.sum(), inputs, create_graph=True)
    return grad.pow(2).sum(1).mean()


def relativistic(a, b, target):
    diff = a - b.mean()
    return F.binary_cross_entropy_with_logits(diff, torch.full_like(diff, target))


def d_step(state, real):
    G, D = state["G"], state["D"]
    real = real.requires_grad_(True)
    fake = G(torch.randn(BATCH, 4)).detach().requires_grad_(True)
    real_logits, fake_logits = D(real), D(fake)
    loss = relativistic(real_logits, fake_logits, 1.0) + relativistic(fake_logits, real_logits, 0.0)
    r1 = gradient_sq_norm(real_logits, real)
    r2 = gradient_sq_norm(fake_logits, fake)
    total = loss + GAMMA / 2 * (r1 + r2)
    state["opt_d"].zero_grad()
    total.backward()
    state["opt_d"].step()
    return loss.item(), r1.item(), r2.item()


def g_step(state, real):
    G, D = state["G"], state["D"]
    fake_logits = D(G(torch.randn(BATCH, 4)))
    real_logits = D(real.detach())
    loss = relativistic(real_logits, fake_logits, 0.0) + relativistic(fake_logits, real_logits, 1.0)
    state["opt_g"].zero_grad()
    loss.backward()
    state["opt_g"].step()
    return loss.item()


def train(steps=6):
    state = build_state()
    for step in range(steps):
        real = ring_batch(BATCH)
        d_loss, r1, r2 = d_step(state, real)
        g_loss = g_step(state, real)
        state["history"].append({"d": d_loss, "g": g_loss})
        print(f"step {step} d {d_loss:.4f} g {g_loss:.4f} r1 {r1:.4f} r2 {r2:.4f}")
    return state


if __name__ == "__main__":
    state = train()
    with torch.no_grad():
        samples = state["G"](torch.randn(256, 4))
    print(f"sample radius {samples.norm(dim=1).mean().item():.4f}")
    print(f"checksum {sum(p.sum().item() for k in ('G', 'D') for p in state[k].parameters()):.4f}")
