"""One adversarial round, split in the two usual halves."""
import torch
import torch.nn.functional as F


def _bce(logits, value):
    return F.binary_cross_entropy_with_logits(logits, torch.full_like(logits, value))


def discriminator_step(disc, opt_d, real, fake):
    real_logits = disc(real)
    fake_logits = disc(fake.detach())
    loss = 0.5 * (_bce(real_logits, 0.9) + _bce(fake_logits, 0.0))
    opt_d.zero_grad()
    loss.backward()
    opt_d.step()
    return loss.item()


def generator_step(disc, opt_g, fake):
    loss = _bce(disc(fake), 1.0)
    opt_g.zero_grad()
    loss.backward()
    opt_g.step()
    return loss.item()
