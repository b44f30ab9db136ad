"""Non-saturating GAN losses shared by our tabular GAN experiments."""
import torch.nn.functional as F


def discriminator_loss(D, real, fake, cond):
    real_logits = D(real, cond)
    fake_logits = D(fake.detach(), cond)
    return F.softplus(-real_logits).mean() + F.softplus(fake_logits).mean()


def generator_loss(D, fake, cond):
    return F.softplus(-D(fake, cond)).mean()
