"""Training helpers shared by the TTS recipes."""
import functools

import torch


def optimizer_step(optimizer, max_grad_norm=1.0):
    """Decorate a function that computes the losses of one batch and returns them in a dict
    with a "loss" entry: the wrapper zeroes the gradients, backpropagates "loss", clips,
    steps the optimizer and returns the losses as floats for logging."""
    params = [p for group in optimizer.param_groups for p in group["params"]]

    def decorate(step_fn):
        @functools.wraps(step_fn)
        def wrapper(*args, **kwargs):
            optimizer.zero_grad()
            losses = step_fn(*args, **kwargs)
            losses["loss"].backward()
            losses["grad_norm"] = torch.nn.utils.clip_grad_norm_(params, max_grad_norm)
            optimizer.step()
            return {name: value.item() for name, value in losses.items()}
        return wrapper
    return decorate
