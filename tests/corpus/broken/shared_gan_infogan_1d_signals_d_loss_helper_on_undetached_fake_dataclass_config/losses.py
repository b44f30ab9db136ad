"""InfoGAN objectives: the adversarial loss of the discriminator, and the generator's
adversarial loss plus the mutual-information term estimated by the Q head."""
import torch
import torch.nn.functional as F


def discriminator_loss(netD, real, fake):
    real_logit, _ = netD(real)
    fake_logit, _ = netD(fake)
    ones, zeros = torch.ones_like(real_logit), torch.zeros_like(fake_logit)
    return (F.binary_cross_entropy_with_logits(real_logit, ones)
            + F.binary_cross_entropy_with_logits(fake_logit, zeros))


def generator_info_loss(netD, fake, codes, info_weight):
    fake_logit, code_logits = netD(fake)
    adv = F.binary_cross_entropy_with_logits(fake_logit, torch.ones_like(fake_logit))
    info = F.cross_entropy(code_logits, codes)
    return adv + info_weight * info, info
