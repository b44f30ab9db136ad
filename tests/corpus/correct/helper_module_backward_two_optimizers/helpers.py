"""Training helpers shared by the project's scripts."""
import torch


def backward_and_step(loss, optimizers, max_norm=None, params=None):
    """Zero every optimizer, backpropagate `loss`, optionally clip, then step them all."""
    for opt in optimizers:
        opt.zero_grad()
    loss.backward()
    if max_norm is not None:
        torch.nn.utils.clip_grad_norm_(params, max_norm)
    for opt in optimizers:
        opt.step()
    return loss.detach()


def checksum(*modules):
    return sum(p.sum().item() for m in modules for p in m.parameters())
