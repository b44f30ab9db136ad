"""Discriminator regularizers."""
import torch


def r1_penalty(real_logits, real_images):
    """Zero-centered gradient penalty on real data (Mescheder et al., 2018)."""
    (grad,) = torch.autograd.grad(outputs=real_logits.sum(), inputs=real_images, create_graph=True)
    return grad.pow(2).flatten(1).sum(1).mean()
