"""1-D GAN on a mixture of three Gaussians. The generator maps 4-d noise to a scalar sample;
the discriminator scores samples. Alternating updates, discriminator first."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
NOISE_DIM, BATCH, STEPS = 4, 64, 8
CENTERS = torch.tensor([-2.0, 0.5, 3.0])


def sample_real(n):
    which = torch.randint(0, len(CENTERS), (n,))
    return (CENTERS[which] + 0.25 * torch.randn(n)).unsqueeze(1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(NOISE_DIM, 32), nn.LeakyReLU(0.2),
                                 nn.Linear(32, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(1)


def main():
    generator, discriminator = Generator(), Discriminator()
    opt_g = torch.optim.Adam(generator.parameters(), lr=2e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(discriminator.parameters(), lr=2e-3, betas=(0.5, 0.999))
    ones, zeros = torch.ones(BATCH), torch.zeros(BATCH)

    for step in range(STEPS):
        real = sample_real(BATCH)
        fake = generator(torch.randn(BATCH, NOISE_DIM))

        # discriminator: real -> 1, fake -> 0
        d_loss = (F.binary_cross_entropy_with_logits(discriminator(real), ones)
                  + F.binary_cross_entropy_with_logits(discriminator(fake.detach()), zeros))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        # generator: fool the discriminator
        g_loss = F.binary_cross_entropy_with_logits(discriminator(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()

        print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f} "
              f"fake mean {fake.mean().item():+.3f}")

    with torch.no_grad():
        samples = generator(torch.randn(512, NOISE_DIM)).squeeze(1)
    print(f"sample mean {samples.mean().item():+.4f} std {samples.std().item():.4f}")


if __name__ == "__main__":
    main()
