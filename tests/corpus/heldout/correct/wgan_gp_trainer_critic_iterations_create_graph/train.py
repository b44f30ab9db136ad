"""WGAN-GP on a 2-D mixture of Gaussians, written as a trainer class: several critic
updates per generator update, fakes detached for the critic, a gradient penalty on
interpolates computed with create_graph=True, and a fresh critic pass for the generator."""
import torch
import torch.nn as nn

torch.manual_seed(13)
Z_DIM, GP_WEIGHT, N_CRITIC = 3, 10.0, 3


def mixture(n):
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    return centers[torch.randint(0, 4, (n,))] + 0.1 * torch.randn(n, 2)


class WGANGPTrainer:
    def __init__(self, generator, critic):
        self.G, self.C = generator, critic
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.5, 0.9))
        self.opt_c = torch.optim.Adam(self.C.parameters(), lr=1e-3, betas=(0.5, 0.9))

    def gradient_penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1)
        mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        scores = self.C(mixed)
        (grads,) = torch.autograd.grad(scores.sum(), mixed, create_graph=True)
        return ((grads.norm(2, dim=1) - 1) ** 2).mean()

    def critic_step(self, real):
        fake = self.G(torch.randn(real.size(0), Z_DIM)).detach()
        wasserstein = self.C(fake).mean() - self.C(real).mean()
        loss = wasserstein + GP_WEIGHT * self.gradient_penalty(real, fake)
        self.opt_c.zero_grad()
        loss.backward()
        self.opt_c.step()
        return -wasserstein.item()

    def generator_step(self, n):
        loss = -self.C(self.G(torch.randn(n, Z_DIM))).mean()
        self.opt_g.zero_grad()
        loss.backward()
        self.opt_g.step()
        return loss.item()


G = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
C = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(),
                  nn.Linear(32, 1, bias=False))  # a constant offset cancels in the critic loss
trainer = WGANGPTrainer(G, C)
for it in range(4):
    w_dist = [trainer.critic_step(mixture(64)) for _ in range(N_CRITIC)][-1]
    g_loss = trainer.generator_step(64)
    print(f"iter {it} wasserstein {w_dist:.5f} g_loss {g_loss:.5f}")

print(f"G checksum {sum(p.double().sum().item() for p in G.parameters()):.6f}")
print(f"C checksum {sum(p.double().sum().item() for p in C.parameters()):.6f}")
