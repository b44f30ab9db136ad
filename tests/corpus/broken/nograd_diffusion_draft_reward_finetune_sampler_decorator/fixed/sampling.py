"""Samplers for the toy 2-D diffusion model."""
import functools

import torch

T = 20
betas = torch.linspace(1e-3, 0.2, T)
alpha_bars = torch.cumprod(1.0 - betas, dim=0)


def sampler(fn):
    """Marks a sampling routine: runs the model in eval mode without recording autograd
    history (sampling is inference), and restores the previous mode afterwards."""

    @functools.wraps(fn)
    def wrapper(model, *args, **kwargs):
        was_training = model.training
        model.eval()
        try:
            with torch.no_grad():
                return fn(model, *args, **kwargs)
        finally:
            model.train(was_training)

    return wrapper


def ddim_sample(model, n, steps=4, generator=None):
    """Deterministic DDIM (eta = 0) from pure noise over `steps` evenly spaced timesteps."""
    x = torch.randn(n, 2, generator=generator)
    timesteps = torch.linspace(T - 1, 0, steps).round().long().tolist()
    for i, t in enumerate(timesteps):
        a_t = alpha_bars[t]
        a_prev = alpha_bars[timesteps[i + 1]] if i + 1 < len(timesteps) else torch.tensor(1.0)
        eps = model(x, torch.full((n,), t))
        x0 = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        x = a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps
    return x


# eval-time sampling without autograd history; ddim_sample itself stays differentiable
# so that rewards can be backpropagated through the chain
generate = sampler(ddim_sample)
