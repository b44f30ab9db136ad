"""Small optimisation helpers shared across the RL experiments."""
import torch


def apply_update(loss, *optimizers, max_norm=None):
    """zero_grad -> backward -> (clip) -> step for the given optimizers."""
    for opt in optimizers:
        opt.zero_grad()
    loss.backward()
    if max_norm is not None:
        params = [p for opt in optimizers for group in opt.param_groups for p in group["params"]]
        torch.nn.utils.clip_grad_norm_(params, max_norm)
    for opt in optimizers:
        opt.step()
    return loss.item()
