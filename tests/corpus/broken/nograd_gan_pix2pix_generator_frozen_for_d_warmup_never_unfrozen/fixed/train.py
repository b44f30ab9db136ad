"""pix2pix-style conditional GAN on 1-D signals (denoise a noisy sine into a clean one). The
discriminator gets a short warm-up with the generator frozen; after it, the usual
alternating updates with set_requires_grad(net_d, False) during the generator step."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LENGTH, BATCH, STEPS, WARMUP_STEPS, L1_WEIGHT = 32, 8, 5, 2, 10.0


def set_requires_grad(nets, requires_grad):
    for net in nets if isinstance(nets, (list, tuple)) else [nets]:
        for p in net.parameters():
            p.requires_grad = requires_grad


def signal_pairs(n):
    t = torch.linspace(0, 2 * math.pi, LENGTH)
    phase = torch.rand(n, 1) * 2 * math.pi
    clean = torch.sin(t + phase).unsqueeze(1)
    return clean + 0.3 * torch.randn_like(clean), clean


torch.manual_seed(0)
net_g = nn.Sequential(nn.Conv1d(1, 16, 5, padding=2), nn.ReLU(), nn.Conv1d(16, 16, 5, padding=2),
                      nn.ReLU(), nn.Conv1d(16, 1, 5, padding=2))
net_d = nn.Sequential(nn.Conv1d(2, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                      nn.Conv1d(16, 1, 4, stride=2, padding=1))
opt_g = torch.optim.Adam(net_g.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(net_d.parameters(), lr=2e-3, betas=(0.5, 0.999))
set_requires_grad(net_g, False)

for step in range(STEPS):
    if step == WARMUP_STEPS:
        set_requires_grad(net_g, True)
    noisy, clean = signal_pairs(BATCH)
    fake = net_g(noisy)

    set_requires_grad(net_d, True)
    pred_real = net_d(torch.cat([noisy, clean], 1))
    pred_fake = net_d(torch.cat([noisy, fake.detach()], 1))
    loss_d = 0.5 * (F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real))
                    + F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake)))
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    if step < WARMUP_STEPS:
        print(f"step {step} warm-up loss_d {loss_d.item():.4f}")
        continue

    set_requires_grad(net_d, False)
    pred_fake = net_d(torch.cat([noisy, fake], 1))
    loss_g = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake)) \
        + L1_WEIGHT * F.l1_loss(fake, clean)
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    print(f"step {step} loss_d {loss_d.item():.4f} loss_g {loss_g.item():.4f}")
