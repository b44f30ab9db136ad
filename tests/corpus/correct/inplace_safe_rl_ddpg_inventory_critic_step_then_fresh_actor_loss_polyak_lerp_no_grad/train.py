"""DDPG for a toy inventory-ordering problem. The critic is stepped first and the actor loss is built
afterwards from a fresh critic forward; target networks are blended in place under no_grad."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

GAMMA, TAU = 0.9, 0.1


def transitions(n, gen):
    # state: [stock level, forecast demand, day-of-week phase]
    s = torch.rand(n, 3, generator=gen)
    a = torch.rand(n, 1, generator=gen)                   # order quantity in [0, 1]
    demand = s[:, 1:2] + 0.1 * torch.randn(n, 1, generator=gen)
    stock = (s[:, 0:1] + a - demand).clamp(min=0)
    r = -0.5 * stock - 2.0 * (demand - s[:, 0:1] - a).clamp(min=0) - 0.1 * a
    s2 = torch.cat([stock, (s[:, 1:2] + 0.05).clamp(max=1), (s[:, 2:3] + 1 / 7) % 1], dim=1)
    return s, a, r, s2


def soft_update(target, source, tau):
    with torch.no_grad():
        for tp, p in zip(target.parameters(), source.parameters()):
            tp.lerp_(p, tau)


def main():
    torch.manual_seed(12)
    gen = torch.Generator().manual_seed(12)
    actor = nn.Sequential(nn.Linear(3, 24), nn.ReLU(inplace=True), nn.Linear(24, 1), nn.Sigmoid())
    critic = nn.Sequential(nn.Linear(4, 32), nn.ReLU(inplace=True), nn.Linear(32, 1))
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    opt_a = torch.optim.Adam(actor.parameters(), lr=1e-3)
    opt_c = torch.optim.Adam(critic.parameters(), lr=2e-3)

    for step in range(7):
        s, a, r, s2 = transitions(64, gen)
        with torch.no_grad():
            y = r + GAMMA * critic_t(torch.cat([s2, actor_t(s2)], dim=1))
        critic_loss = F.mse_loss(critic(torch.cat([s, a], dim=1)), y)
        opt_c.zero_grad()
        critic_loss.backward()
        opt_c.step()

        actor_loss = -critic(torch.cat([s, actor(s)], dim=1)).mean()
        opt_a.zero_grad()
        actor_loss.backward()
        opt_a.step()

        soft_update(actor_t, actor, TAU)
        soft_update(critic_t, critic, TAU)
        print(f"step {step}: critic={critic_loss.item():.4f} actor={actor_loss.item():.4f}")

    params = list(actor.parameters()) + list(critic.parameters())
    print(f"param checksum: {sum(p.double().sum().item() for p in params):.6f}")


if __name__ == "__main__":
    main()
