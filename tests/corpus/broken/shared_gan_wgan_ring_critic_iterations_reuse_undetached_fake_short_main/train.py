"""WGAN (weight clipping, RMSprop) on the 8-Gaussians ring toy distribution. The critic is
trained N_CRITIC times per generator update, on one generated batch per generator update."""
import math

import torch
import torch.nn as nn

Z_DIM, BATCH, N_CRITIC, CLIP = 4, 64, 3, 0.05


def sample_ring(n, radius=2.0, std=0.05):
    k = torch.randint(0, 8, (n,)).float()
    centers = torch.stack([torch.cos(k * math.pi / 4), torch.sin(k * math.pi / 4)], 1) * radius
    return centers + std * torch.randn(n, 2)


def mlp(n_in, n_out, hidden=32, out_bias=True):
    # a critic's output bias cancels out of the Wasserstein estimate, so it is left out
    return nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                         nn.ReLU(), nn.Linear(hidden, n_out, bias=out_bias))


def main(gen_iters=4):
    torch.manual_seed(0)
    generator, critic = mlp(Z_DIM, 2), mlp(2, 1, out_bias=False)
    opt_g = torch.optim.RMSprop(generator.parameters(), lr=5e-4)
    opt_c = torch.optim.RMSprop(critic.parameters(), lr=5e-4)
    history = []
    for it in range(gen_iters):
        fake = generator(torch.randn(BATCH, Z_DIM))
        for _ in range(N_CRITIC):
            real = sample_ring(BATCH)
            c_loss = critic(fake).mean() - critic(real).mean()
            opt_c.zero_grad()
            c_loss.backward()
            opt_c.step()
            with torch.no_grad():
                for p in critic.parameters():
                    p.clamp_(-CLIP, CLIP)

        g_loss = -critic(generator(torch.randn(BATCH, Z_DIM))).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        history.append((c_loss.item(), g_loss.item()))
        print(f"iter {it}: W-distance est {-c_loss.item():.4f} g_loss {g_loss.item():.4f}")
    return history


if __name__ == "__main__":
    main()
