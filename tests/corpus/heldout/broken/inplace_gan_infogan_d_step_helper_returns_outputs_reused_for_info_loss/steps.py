"""Update steps shared by our GAN experiments."""
import torch
import torch.nn.functional as F


def discriminator_step(netD, opt_d, real, fake):
    """One D update. Returns D's outputs on `fake` so the caller does not have to run the
    discriminator a second time for the generator / mutual-information losses."""
    d_real, _ = netD(real)
    d_fake, q_fake = netD(fake)
    loss = (F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real))
            + F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake)))
    opt_d.zero_grad()
    loss.backward(retain_graph=True)
    opt_d.step()
    return loss.detach(), d_fake, q_fake


def info_generator_step(opt_g, d_fake, q_fake, codes, info_weight=1.0):
    adv = F.binary_cross_entropy_with_logits(d_fake, torch.ones_like(d_fake))
    info = F.cross_entropy(q_fake, codes)
    opt_g.zero_grad()
    (adv + info_weight * info).backward()
    opt_g.step()
    return adv.detach(), info.detach()
