"""Module hooks used by the image GAN experiments."""
import torch


def register_pixel_range_hook(module):
    """The generator ends in Tanh ([-1, 1]) but the discriminator and the metrics work on
    [0, 1] images: rescale the module's output right where it is produced."""

    def _to_unit_range(mod, inputs, output):
        return (output + 1.0) * 0.5

    return module.register_forward_hook(_to_unit_range)


def grad_norm(module):
    total = torch.zeros(())
    for p in module.parameters():
        if p.grad is not None:
            total += p.grad.pow(2).sum()
    return total.sqrt().item()
