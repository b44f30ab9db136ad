"""CycleGAN between two tiny texture domains (A: horizontal stripes, B: vertical stripes).

As in the reference implementation the generators are updated first with both
discriminators frozen (requires_grad False), then the discriminators are updated on fakes
drawn from a history pool of earlier generator outputs.
"""
import itertools
import random
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

LAMBDA_CYC, LAMBDA_IDT, ITERS = 10.0, 5.0, 6


@dataclass
class ImagePool:
    size: int
    images: list = field(default_factory=list)

    def query(self, batch):
        out = []
        for img in batch.detach():
            img = img.unsqueeze(0)
            if len(self.images) < self.size:
                self.images.append(img)
                out.append(img)
            elif random.random() > 0.5:
                idx = random.randrange(self.size)
                out.append(self.images[idx].clone())
                self.images[idx] = img
            else:
                out.append(img)
        return torch.cat(out, 0)


def translator():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.InstanceNorm2d(16), nn.ReLU(True),
        nn.Conv2d(16, 16, 3, padding=1), nn.InstanceNorm2d(16), nn.ReLU(True),
        nn.Conv2d(16, 3, 3, padding=1), nn.Tanh())


def patch_critic():
    return nn.Sequential(
        nn.Conv2d(3, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
        nn.Conv2d(16, 1, 3, padding=1))


def set_requires_grad(nets, flag):
    for net in nets:
        for p in net.parameters():
            p.requires_grad = flag


def stripes(n, vertical):
    phase = torch.rand(n, 1, 1, 1) * 6.28
    coords = torch.arange(8.0).view(1, 1, 8, 1)
    if vertical:
        coords = coords.transpose(2, 3)
    color = torch.rand(n, 3, 1, 1)
    return torch.sin(coords * 1.6 + phase) * color + 0.05 * torch.randn(n, 3, 8, 8)


def lsgan(pred, is_real):
    return F.mse_loss(pred, torch.full_like(pred, 1.0 if is_real else 0.0))


def main():
    torch.manual_seed(7)
    random.seed(7)
    G_AB, G_BA, D_A, D_B = translator(), translator(), patch_critic(), patch_critic()
    opt_G = torch.optim.Adam(itertools.chain(G_AB.parameters(), G_BA.parameters()), lr=2e-4, betas=(0.5, 0.999))
    opt_D = torch.optim.Adam(itertools.chain(D_A.parameters(), D_B.parameters()), lr=2e-4, betas=(0.5, 0.999))
    pool_A, pool_B = ImagePool(6), ImagePool(6)
    history = []
    for it in range(ITERS):
        real_A, real_B = stripes(4, vertical=False), stripes(4, vertical=True)

        # generators first, discriminators frozen
        set_requires_grad([D_A, D_B], False)
        fake_B = G_AB(real_A)
        rec_A = G_BA(fake_B)
        fake_A = G_BA(real_B)
        rec_B = G_AB(fake_A)
        loss_idt = F.l1_loss(G_AB(real_B), real_B) + F.l1_loss(G_BA(real_A), real_A)
        loss_gan = lsgan(D_B(fake_B), True) + lsgan(D_A(fake_A), True)
        loss_cyc = F.l1_loss(rec_A, real_A) + F.l1_loss(rec_B, real_B)
        loss_G = loss_gan + LAMBDA_CYC * loss_cyc + LAMBDA_IDT * loss_idt
        opt_G.zero_grad()
        loss_G.backward()
        opt_G.step()

        # discriminators on pooled (history) fakes
        set_requires_grad([D_A, D_B], True)
        opt_D.zero_grad()
        losses_D = []
        for D, real, fake in ((D_A, real_A, pool_A.query(fake_A)), (D_B, real_B, pool_B.query(fake_B))):
            loss_D = 0.5 * (lsgan(D(real), True) + lsgan(D(fake), False))
            loss_D.backward()
            losses_D.append(loss_D.item())
        opt_D.step()
        history.append((loss_G.item(), *losses_D))
        print(f"iter {it} G {loss_G.item():.4f} gan {loss_gan.item():.4f} cyc {loss_cyc.item():.4f} "
              f"D_A {losses_D[0]:.4f} D_B {losses_D[1]:.4f} pool {len(pool_A.images)}")
    checksum = sum(p.sum().item() for m in (G_AB, G_BA, D_A, D_B) for p in m.parameters())
    return history, checksum


if __name__ == "__main__":
    _, checksum = main()
    print(f"checksum {checksum:.4f}")
