"""Loss terms for the small style-based GAN (kept apart from the training script, in the
spirit of StyleGAN2's training/loss.py)."""
import math

import torch
import torch.nn.functional as F


def g_nonsaturating(fake_logits):
    return F.softplus(-fake_logits).mean()


def d_logistic(real_logits, fake_logits):
    return F.softplus(fake_logits).mean() + F.softplus(-real_logits).mean()


class PathLengthPenalty:
    """Path length regularisation: keeps |J_w^T y| close to its running mean pl_mean,
    so that a fixed-size step in W gives a fixed-size change in the image."""

    def __init__(self, decay=0.01, weight=2.0):
        self.decay = decay
        self.weight = weight
        self.pl_mean = torch.zeros(())
        self.history = []

    def __call__(self, images, w):
        noise = torch.randn_like(images) / math.sqrt(images.shape[1])
        (grad,) = torch.autograd.grad((images * noise).sum(), w, create_graph=True)
        lengths = grad.square().sum(dim=1).sqrt()
        self.pl_mean = self.pl_mean.lerp(lengths.mean(), self.decay)
        self.history.append(float(self.pl_mean))
        return self.weight * (lengths - self.pl_mean).square().mean()
