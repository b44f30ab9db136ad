"""Small image GAN with a lazy R1 gradient penalty (StyleGAN2 style).

Every other discriminator step the real batch is marked requires_grad, the gradient of
D(real) w.r.t. the images is taken with create_graph=True, and its squared norm is added
to the discriminator loss so that backward differentiates through the gradient itself.
The discriminator is frozen with requires_grad_(False) while the generator trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
LATENT, R1_GAMMA, R1_EVERY = 16, 10.0, 2


def set_requires_grad(module, flag):
    for p in module.parameters():
        p.requires_grad_(flag)


generator = nn.Sequential(
    nn.Linear(LATENT, 64), nn.LeakyReLU(0.2),
    nn.Linear(64, 64), nn.LeakyReLU(0.2),
    nn.Linear(64, 64), nn.Tanh(), nn.Unflatten(1, (1, 8, 8)))
discriminator = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.LeakyReLU(0.2),
    nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
    nn.Flatten(), nn.Linear(16 * 4 * 4, 1))
g_opt = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.0, 0.99))
d_opt = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.0, 0.99))

# "real" images: blurred blobs
grid = torch.linspace(-1, 1, 8)
yy, xx = torch.meshgrid(grid, grid, indexing="ij")


def real_batch(n):
    cx, cy = torch.rand(n, 1, 1) - 0.5, torch.rand(n, 1, 1) - 0.5
    img = torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 0.2) * 2 - 1
    return img.unsqueeze(1)


for step in range(6):
    real = real_batch(12)
    z = torch.randn(12, LATENT)

    # discriminator update
    set_requires_grad(discriminator, True)
    apply_r1 = step % R1_EVERY == 0
    real_in = real.detach().requires_grad_(apply_r1)
    d_real = discriminator(real_in)
    d_fake = discriminator(generator(z).detach())
    d_loss = F.softplus(d_fake).mean() + F.softplus(-d_real).mean()
    r1_value = 0.0
    if apply_r1:
        (grad_real,) = torch.autograd.grad(d_real.sum(), real_in, create_graph=True)
        r1 = grad_real.pow(2).flatten(1).sum(1).mean()
        d_loss = d_loss + (R1_GAMMA / 2) * r1 * R1_EVERY
        r1_value = r1.item()
    d_opt.zero_grad(set_to_none=True)
    d_loss.backward()
    d_opt.step()

    # generator update, discriminator frozen
    set_requires_grad(discriminator, False)
    g_loss = F.softplus(-discriminator(generator(torch.randn(12, LATENT)))).mean()
    g_opt.zero_grad(set_to_none=True)
    g_loss.backward()
    g_opt.step()
    print(f"step {step} d_loss {d_loss.item():.6f} g_loss {g_loss.item():.6f} r1 {r1_value:.6f}")

set_requires_grad(discriminator, True)
total = sum(p.sum().item() for m in (generator, discriminator) for p in m.parameters())
print(f"checksum {total:.6f}")
