"""1-D GAN on a two-mode Gaussian mixture. To keep the two players balanced, the
generator's learning rate is rescaled every step from a moving average of the
discriminator loss: when the discriminator is winning (low loss) the generator gets a
larger step, when it is losing the generator slows down."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NOISE, BATCH, STEPS = 4, 64, 8
BASE_LR_G, LR_D, TARGET_D_LOSS = 2e-3, 2e-3, 1.2


def real_batch(n):
    modes = torch.where(torch.rand(n, 1) < 0.5, -2.0, 2.0)
    return modes + 0.3 * torch.randn(n, 1)


def train():
    gen = nn.Sequential(nn.Linear(NOISE, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    disc = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    opt_g = torch.optim.Adam(gen.parameters(), lr=BASE_LR_G, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=LR_D, betas=(0.5, 0.999))
    d_loss_avg = TARGET_D_LOSS
    for step in range(STEPS):
        real = real_batch(BATCH)
        fake = gen(torch.randn(BATCH, NOISE))

        real_logits, fake_logits = disc(real), disc(fake.detach())
        d_loss = (F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
                  + F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits)))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        d_loss_avg = 0.8 * d_loss_avg + 0.2 * d_loss
        scale = min(max(TARGET_D_LOSS / d_loss_avg, 0.5), 2.0)
        for group in opt_g.param_groups:
            group["lr"] = BASE_LR_G * scale

        gen_logits = disc(fake)
        g_loss = F.binary_cross_entropy_with_logits(gen_logits, torch.ones_like(gen_logits))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f} "
              f"g_lr x{scale:.3f} fake mean {fake.mean().item():+.3f}")
    return gen


if __name__ == "__main__":
    train()
