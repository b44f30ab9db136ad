"""GAN that synthesises plausible multi-sensor readings (temperature, pressure, flow, vibration)."""
import torch
import torch.nn as nn

from gan_steps import discriminator_step, generator_step

LATENT, FEATURES = 6, 4


def sensor_batch(g, n=16):
    temp = 0.5 * torch.randn(n, 1, generator=g) + 1.0
    pressure = 0.8 * temp + 0.1 * torch.randn(n, 1, generator=g)
    flow = torch.relu(pressure - 0.5)
    vibration = 0.2 * torch.randn(n, 1, generator=g).abs()
    return torch.cat([temp, pressure, flow, vibration], dim=1)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(7)
    gen = nn.Sequential(nn.Linear(LATENT, 16), nn.LeakyReLU(0.2), nn.Linear(16, FEATURES))
    disc = nn.Sequential(nn.Linear(FEATURES, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-3, betas=(0.5, 0.999))
    for it in range(5):
        real = sensor_batch(g)
        z = torch.randn(real.shape[0], LATENT, generator=g)
        fake = gen(z)
        d_loss = discriminator_step(disc, opt_d, real, fake)
        g_loss = generator_step(disc, opt_g, fake)
        print(f"iter {it} d {d_loss:.4f} g {g_loss:.4f}")


if __name__ == "__main__":
    main()
