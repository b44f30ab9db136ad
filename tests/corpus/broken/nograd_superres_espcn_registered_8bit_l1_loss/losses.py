"""Loss registry for the super-resolution configs: a loss is picked by name in the config."""
import torch
import torch.nn.functional as F

LOSSES = {}


def register_loss(name):
    def decorator(fn):
        LOSSES[name] = fn
        return fn
    return decorator


def to_8bit(img):
    """Quantize a [0, 1] image the way it is written to PNG."""
    return (img.clamp(0, 1) * 255).round().to(torch.uint8)


@register_loss("l1")
def l1(sr, hr):
    return F.l1_loss(sr, hr)


@register_loss("l1_8bit")
def l1_8bit(sr, hr):
    """L1 on the saved 8-bit images, so the training loss matches the PSNR we report."""
    sr_q = to_8bit(sr).float()
    hr_q = to_8bit(hr).float()
    return F.l1_loss(sr_q, hr_q) / 255


def psnr_8bit(sr, hr):
    mse = (to_8bit(sr).float() - to_8bit(hr).float()).pow(2).mean()
    return (10 * torch.log10(255 ** 2 / mse)).item()
