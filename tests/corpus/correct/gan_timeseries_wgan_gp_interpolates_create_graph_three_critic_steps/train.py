# WGAN-GP for short synthetic sensor traces.  The gradient penalty needs the
# critic's input-gradient to be differentiable, hence create_graph=True; the
# generator output is detached for the critic steps and regenerated for the
# generator step.
import torch
import torch.nn as nn

SEQ, Z, N_CRITIC, LAMBDA = 24, 8, 3, 10.0


def real_traces(n, gen):
    t = torch.linspace(0, 6.28, SEQ)
    freq = 1 + torch.rand(n, 1, generator=gen)
    return torch.sin(freq * t) + 0.05 * torch.randn(n, SEQ, generator=gen)


def gradient_penalty(critic, real, fake, gen):
    eps = torch.rand(real.shape[0], 1, generator=gen)
    mixed = (eps * real + (1 - eps) * fake).requires_grad_(True)
    score = critic(mixed)
    (grad,) = torch.autograd.grad(score.sum(), mixed, create_graph=True)
    return ((grad.norm(2, dim=1) - 1) ** 2).mean()


def main():
    torch.manual_seed(17)
    gen = torch.Generator().manual_seed(17)
    G = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Linear(32, SEQ), nn.Tanh())
    # no bias on the last critic layer: it cancels in D(fake) - D(real)
    D = nn.Sequential(nn.Linear(SEQ, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1, bias=False))
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))

    for it in range(4):
        for _ in range(N_CRITIC):
            real = real_traces(16, gen)
            fake = G(torch.randn(16, Z, generator=gen)).detach()
            gp = gradient_penalty(D, real, fake, gen)
            d_loss = D(fake).mean() - D(real).mean() + LAMBDA * gp
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()

        fake = G(torch.randn(16, Z, generator=gen))
        g_loss = -D(fake).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"iter {it} d_loss {d_loss.item():.4f} gp {gp.item():.4f} g_loss {g_loss.item():.4f}")

    print("G checksum", round(sum(p.sum().item() for p in G.parameters()), 4))
    print("D checksum", round(sum(p.sum().item() for p in D.parameters()), 4))


if __name__ == "__main__":
    main()
