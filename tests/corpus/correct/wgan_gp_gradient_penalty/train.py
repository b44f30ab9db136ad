"""WGAN-GP on 2-D toy data: the critic loss carries a gradient penalty computed with
torch.autograd.grad(create_graph=True) on random interpolates."""
import torch
import torch.nn as nn

torch.manual_seed(2)
LAMBDA, N_CRITIC, BATCH = 10.0, 2, 16


def mlp(inp, out):
    return nn.Sequential(nn.Linear(inp, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                         nn.Linear(32, out))


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interpolates)
    grads = torch.autograd.grad(outputs=scores, inputs=interpolates,
                                grad_outputs=torch.ones_like(scores),
                                create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def sample_real(n):
    angle = torch.rand(n) * 2 * torch.pi
    return torch.stack([angle.cos(), angle.sin()], dim=1) * 2 + 0.05 * torch.randn(n, 2)


gen, critic = mlp(4, 2), mlp(2, 1)
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.5, 0.9))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.5, 0.9))

for it in range(4):
    for _ in range(N_CRITIC):
        real = sample_real(BATCH)
        with torch.no_grad():
            fake = gen(torch.randn(BATCH, 4))
        opt_c.zero_grad()
        w_dist = critic(real).mean() - critic(fake).mean()
        gp = gradient_penalty(critic, real, fake)
        loss_c = -w_dist + LAMBDA * gp
        loss_c.backward()
        opt_c.step()

    opt_g.zero_grad()
    loss_g = -critic(gen(torch.randn(BATCH, 4))).mean()
    loss_g.backward()
    opt_g.step()
    print(f"it {it} critic {loss_c.item():.6f} gp {gp.item():.6f} gen {loss_g.item():.6f}")

print(f"checksum gen {sum(p.sum().item() for p in gen.parameters()):.6f}")
print(f"checksum critic {sum(p.sum().item() for p in critic.parameters()):.6f}")
