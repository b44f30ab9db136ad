"""Langevin sampler with a persistent replay buffer, for contrastive-divergence training of
an energy-based model (improved CD: the last Langevin step is kept differentiable so a KL
term can train the energy through the sampler)."""
import random
from collections import deque

import torch
from torch.func import functional_call

_REPLAY = deque(maxlen=256)


def init_chains(n, dim, reinit=0.05):
    n_old = sum(random.random() > reinit for _ in range(n)) if len(_REPLAY) >= n else 0
    fresh = torch.rand(n - n_old, dim) * 4 - 2
    if n_old == 0:
        return fresh
    return torch.cat([torch.stack(random.sample(list(_REPLAY), n_old)), fresh])


def langevin(energy, x, steps=10, step_size=0.05, noise=0.01):
    """Runs the chain; returns the sample and, for the KL term, a last step whose gradient
    is taken with create_graph=True, so it depends on the energy's parameters."""
    x = x.requires_grad_()
    for _ in range(steps - 1):
        grad, = torch.autograd.grad(energy(x).sum(), x)
        x = x - step_size * grad + noise * torch.randn_like(x)
    grad, = torch.autograd.grad(energy(x).sum(), x, create_graph=True)
    x_kl = x - step_size * grad
    return x.detach(), x_kl


def kl_energy(energy, x_kl):
    """Energy of the last step under frozen parameters: only the sampler path is trained."""
    frozen = {k: v.detach() for k, v in energy.named_parameters()}
    return functional_call(energy, frozen, (x_kl,))


def push(samples):
    _REPLAY.extend(samples)
