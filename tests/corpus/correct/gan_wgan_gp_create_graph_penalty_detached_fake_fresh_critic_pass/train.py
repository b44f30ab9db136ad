"""WGAN-GP on 2-D two-moons-like data: the critic step uses fake.detach() and a gradient
penalty built with autograd.grad(create_graph=True) and a small drift term; the generator step runs a fresh
critic forward after the critic's optimizer step."""
import torch
import torch.nn as nn

Z_DIM, BATCH, STEPS, N_CRITIC, GP_WEIGHT = 3, 32, 4, 2, 10.0


def real_batch(n):
    t = torch.rand(n) * 3.1416
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, t.cos(), 1 - t.cos())
    y = torch.where(upper, t.sin(), 0.5 - t.sin())
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


torch.manual_seed(0)
gen = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, 2))
critic = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1))
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.0, 0.9))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.0, 0.9))

for step in range(STEPS):
    fake = gen(torch.randn(BATCH, Z_DIM))
    for _ in range(N_CRITIC):
        real = real_batch(BATCH)
        alpha = torch.rand(BATCH, 1)
        mix = (alpha * real + (1 - alpha) * fake.detach()).requires_grad_(True)
        grad, = torch.autograd.grad(critic(mix).sum(), mix, create_graph=True)
        penalty = ((grad.norm(dim=1) - 1) ** 2).mean()
        real_score = critic(real)
        drift = 1e-3 * (real_score ** 2).mean()
        c_loss = critic(fake.detach()).mean() - real_score.mean() + GP_WEIGHT * penalty + drift
        opt_c.zero_grad()
        c_loss.backward()
        opt_c.step()
    g_loss = -critic(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"step {step} critic {c_loss.item():.4f} gp {penalty.item():.4f} gen {g_loss.item():.4f}")
print(f"checksum {sum(p.sum().item() for p in gen.parameters()):.4f}")
