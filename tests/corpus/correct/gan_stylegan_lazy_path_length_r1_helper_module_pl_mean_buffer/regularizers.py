"""StyleGAN2-style lazy regularizers: path length (generator) and R1 (discriminator)."""
import math

import torch


class PathLengthRegularizer:
    """Keeps a running mean of |J_w^T y| in a buffer and penalises deviations from it."""

    def __init__(self, decay=0.01):
        self.decay = decay
        self.pl_mean = torch.zeros(())

    def __call__(self, fake, w):
        """Returns the penalty (differentiable w.r.t. both networks' inputs and G's weights)
        and the current mean path length as a float for logging."""
        noise = torch.randn_like(fake) / math.sqrt(fake.shape[2] * fake.shape[3])
        (grad,) = torch.autograd.grad((fake * noise).sum(), w, create_graph=True)
        lengths = grad.pow(2).sum(dim=1).sqrt()
        penalty = (lengths - self.pl_mean).pow(2).mean()
        with torch.no_grad():
            self.pl_mean.lerp_(lengths.mean(), self.decay)
        return penalty, lengths.mean().item()


def r1_penalty(discriminator, real):
    """Logits on a fresh leaf copy of the real batch and the mean squared input-gradient norm."""
    real = real.detach().requires_grad_(True)
    logits = discriminator(real)
    (grad,) = torch.autograd.grad(logits.sum(), real, create_graph=True)
    return logits, grad.pow(2).flatten(1).sum(1).mean()
