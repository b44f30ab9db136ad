"""Target-network helpers (ported from a pre-0.4 DDPG repo: `.data` and volatile removed)."""
import torch


def hard_update(target, source):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.requires_grad_(False)
        target_param.copy_(param.detach())


@torch.no_grad()
def soft_update(target, source, tau):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.copy_(target_param * (1.0 - tau) + param * tau)
