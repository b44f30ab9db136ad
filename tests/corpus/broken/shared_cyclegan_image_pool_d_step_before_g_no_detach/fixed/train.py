"""CycleGAN on 1-D signals: translate smooth sine segments (domain A) into square-ish waves
(domain B) and back, without paired examples. Discriminators are updated first, on a history
pool of generated signals, then the generators."""
import random

import torch
import torch.nn as nn

from pool import ImagePool

LENGTH, BATCH, LAMBDA_CYC = 16, 8, 10.0


def generator():
    return nn.Sequential(nn.Linear(LENGTH, 32), nn.ReLU(), nn.Linear(32, LENGTH), nn.Tanh())


def discriminator():
    return nn.Sequential(nn.Linear(LENGTH, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))


def sample_domains():
    t = torch.linspace(0, 6.28, LENGTH)
    phase = 6.28 * torch.rand(BATCH, 1)
    return torch.sin(t + phase), torch.tanh(4 * torch.sin(t + phase + 1.0))


def main():
    torch.manual_seed(0)
    random.seed(0)
    G_AB, G_BA, D_A, D_B = generator(), generator(), discriminator(), discriminator()
    opt_G = torch.optim.Adam([*G_AB.parameters(), *G_BA.parameters()], lr=2e-4, betas=(0.5, 0.999))
    opt_D = torch.optim.Adam([*D_A.parameters(), *D_B.parameters()], lr=2e-4, betas=(0.5, 0.999))
    pool_A, pool_B = ImagePool(), ImagePool()
    mse, l1 = nn.MSELoss(), nn.L1Loss()
    ones, zeros = torch.ones(BATCH, 1), torch.zeros(BATCH, 1)

    for step in range(3):
        real_A, real_B = sample_domains()
        fake_B = G_AB(real_A)
        fake_A = G_BA(real_B)

        opt_D.zero_grad()
        loss_D = (mse(D_B(real_B), ones) + mse(D_B(pool_B.query(fake_B.detach())), zeros)
                  + mse(D_A(real_A), ones) + mse(D_A(pool_A.query(fake_A.detach())), zeros)) * 0.5
        loss_D.backward()
        opt_D.step()

        opt_G.zero_grad()
        loss_gan = mse(D_B(fake_B), ones) + mse(D_A(fake_A), ones)
        loss_cyc = l1(G_BA(fake_B), real_A) + l1(G_AB(fake_A), real_B)
        loss_G = loss_gan + LAMBDA_CYC * loss_cyc
        loss_G.backward()
        opt_G.step()
        print(f"step {step} loss_D {loss_D.item():.4f} loss_G {loss_G.item():.4f}")


if __name__ == "__main__":
    main()
