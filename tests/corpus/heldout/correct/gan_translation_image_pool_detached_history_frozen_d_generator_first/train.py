"""Paired 1-D signal translation (pix2pix-style): a generator maps clipped, noisy sensor
traces to clean ones with an L1 term plus an adversarial term from a conditional
discriminator. The generator step comes first, with D frozen; the discriminator then
trains on fakes drawn from a history pool."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from pool import ImagePool

torch.manual_seed(0)
LENGTH, BATCH, L1_WEIGHT = 32, 16, 10.0


def paired_batch(n):
    t = torch.linspace(0, 1, LENGTH)
    clean = torch.sin(6.283 * torch.randint(1, 4, (n, 1)).float() * t + torch.rand(n, 1) * 6.283)
    corrupted = (clean + 0.2 * torch.randn_like(clean)).clamp(-0.6, 0.6)
    return corrupted, clean


def set_requires_grad(net, flag):
    for p in net.parameters():
        p.requires_grad = flag


netG = nn.Sequential(nn.Linear(LENGTH, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, LENGTH))
netD = nn.Sequential(nn.Linear(2 * LENGTH, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
opt_g = torch.optim.Adam(netG.parameters(), lr=1e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(netD.parameters(), lr=1e-3, betas=(0.5, 0.999))
fake_pool = ImagePool()

for step in range(7):
    src, tgt = paired_batch(BATCH)
    fake = netG(src)

    set_requires_grad(netD, False)
    pred_fake = netD(torch.cat([src, fake], dim=1))
    g_adv = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
    g_l1 = F.l1_loss(fake, tgt)
    opt_g.zero_grad()
    (g_adv + L1_WEIGHT * g_l1).backward()
    opt_g.step()

    set_requires_grad(netD, True)
    pooled = fake_pool.query(fake)
    pred_real = netD(torch.cat([src, tgt], dim=1))
    pred_pool = netD(torch.cat([src, pooled], dim=1))
    d_loss = 0.5 * (F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real))
                    + F.binary_cross_entropy_with_logits(pred_pool, torch.zeros_like(pred_pool)))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    print(f"step {step} g_adv {g_adv.item():.4f} g_l1 {g_l1.item():.4f} d {d_loss.item():.4f} "
          f"pool {len(fake_pool.images)}")
print(f"checksum {sum(p.sum().item() for p in netG.parameters()):.4f}")
