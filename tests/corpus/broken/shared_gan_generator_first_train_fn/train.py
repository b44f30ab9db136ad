"""1-D GAN fitting N(3, 0.5), written generator-step-first inside a train() function."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_nets(z_dim=3, hidden=16):
    G = nn.Sequential(nn.Linear(z_dim, hidden), nn.ELU(), nn.Linear(hidden, 1))
    D = nn.Sequential(nn.Linear(1, hidden), nn.ELU(), nn.Linear(hidden, 1))
    return G, D


def train(steps=5, batch=64, z_dim=3):
    G, D = make_nets(z_dim)
    opt_g = torch.optim.SGD(G.parameters(), lr=0.05, momentum=0.9)
    opt_d = torch.optim.SGD(D.parameters(), lr=0.05, momentum=0.9)
    bce = nn.BCEWithLogitsLoss()
    ones, zeros = torch.ones(batch, 1), torch.zeros(batch, 1)
    for step in range(steps):
        real = 3.0 + 0.5 * torch.randn(batch, 1)
        fake = G(torch.randn(batch, z_dim))

        # generator step: make D call the fakes real
        opt_g.zero_grad()
        g_loss = bce(D(fake), ones)
        g_loss.backward()
        opt_g.step()

        # discriminator step on the same batch of fakes
        opt_d.zero_grad()
        d_loss = bce(D(real), ones) + bce(D(fake), zeros)
        d_loss.backward()
        opt_d.step()
    return g_loss.item(), d_loss.item(), fake.mean().item()


g, d, m = train()
print(f"g_loss {g:.4f} d_loss {d:.4f} fake_mean {m:.4f}")
