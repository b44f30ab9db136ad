"""Image-to-image GAN (pix2pix-style) on 8x8 patches: the generator denoises, the patch
discriminator sees (input, output) pairs. Both losses come from one generator forward;
both backward passes run before either optimizer steps, and the generator's backward runs
first so that the discriminator's gradients can be zeroed afterwards."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def patches(n):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(-1, 1, 8), indexing="ij")
    angle = torch.rand(n, 1, 1) * 3.14
    clean = torch.tanh(3 * (torch.cos(angle) * xx + torch.sin(angle) * yy)).unsqueeze(1)
    return clean + 0.4 * torch.randn_like(clean), clean


def build():
    gen = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1),
                        nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1), nn.Tanh())
    disc = nn.Sequential(nn.Conv2d(2, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                         nn.Conv2d(16, 1, 3, padding=1))
    return gen, disc


def main(steps=6, l1_weight=20.0):
    gen, disc = build()
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))
    for step in range(steps):
        noisy, clean = patches(16)
        fake = gen(noisy)

        pred_fake_for_g = disc(torch.cat([noisy, fake], 1))
        g_loss = (F.binary_cross_entropy_with_logits(pred_fake_for_g, torch.ones_like(pred_fake_for_g))
                  + l1_weight * F.l1_loss(fake, clean))
        pred_real = disc(torch.cat([noisy, clean], 1))
        pred_fake = disc(torch.cat([noisy, fake.detach()], 1))
        d_loss = 0.5 * (F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real))
                        + F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake)))

        opt_g.zero_grad()
        g_loss.backward()
        opt_d.zero_grad()
        d_loss.backward()
        opt_g.step()
        opt_d.step()
        print(f"step {step} g_loss {g_loss.item():.4f} d_loss {d_loss.item():.4f}")
    checksum = sum(p.detach().sum().item() for m in (gen, disc) for p in m.parameters())
    print(f"checksum {checksum:.4f}")
    return gen


if __name__ == "__main__":
    main()
