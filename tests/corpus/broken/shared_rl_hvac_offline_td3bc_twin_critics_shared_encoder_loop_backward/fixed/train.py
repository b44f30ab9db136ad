"""Offline TD3+BC for building HVAC control: a shared sensor encoder feeds twin critics
and the actor; trained from a logged dataset of thermostat setpoint adjustments."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OBS, ACT, FEAT = 8, 2, 32
GAMMA, TAU, ALPHA = 0.95, 0.05, 2.5


def mlp(inp, out, hidden=64):
    return nn.Sequential(nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, out))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = mlp(FEAT + ACT, 1)

    def forward(self, z, action):
        return self.q(torch.cat([z, action], dim=1)).squeeze(1)


def logged_dataset(n=256):
    obs = torch.randn(n, OBS)
    act = torch.tanh(0.5 * obs[:, :ACT] + 0.3 * torch.randn(n, ACT))  # behaviour policy
    comfort = (obs[:, 0] + 0.8 * act[:, 0]).abs() + (obs[:, 1] + 0.8 * act[:, 1]).abs()
    energy = 0.3 * act.pow(2).sum(1)
    rew = -(comfort + energy)
    next_obs = obs + 0.1 * torch.randn(n, OBS)
    next_obs[:, :ACT] += 0.5 * act
    return obs, act, rew, next_obs


class TD3BC:
    def __init__(self):
        self.encoder = nn.Sequential(nn.Linear(OBS, FEAT), nn.LayerNorm(FEAT), nn.Tanh())
        self.critics = nn.ModuleList([Critic(), Critic()])
        self.actor = nn.Sequential(mlp(FEAT, ACT), nn.Tanh())
        self.target_encoder = copy.deepcopy(self.encoder).requires_grad_(False)
        self.target_critics = copy.deepcopy(self.critics).requires_grad_(False)
        self.critic_opt = torch.optim.Adam(
            list(self.encoder.parameters()) + list(self.critics.parameters()), lr=1e-3)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.td_errors = []

    @torch.no_grad()
    def td_target(self, rew, next_obs):
        next_z = self.target_encoder(next_obs)
        next_act = (self.actor(next_z) + 0.1 * torch.randn(len(rew), ACT)).clamp(-1, 1)
        next_q = torch.min(*[c(next_z, next_act) for c in self.target_critics])
        return rew + GAMMA * next_q

    def update_critics(self, obs, act, rew, next_obs):
        target = self.td_target(rew, next_obs)
        z = self.encoder(obs)
        td_loss = sum(F.mse_loss(critic(z, act), target) for critic in self.critics)
        self.critic_opt.zero_grad()
        td_loss.backward()
        self.td_errors.append(td_loss.item())
        self.critic_opt.step()

    def update_actor(self, obs, act):
        with torch.no_grad():
            z = self.encoder(obs)
        pi = self.actor(z)
        q = self.critics[0](z, pi)
        lmbda = ALPHA / q.abs().mean().detach()
        actor_loss = -lmbda * q.mean() + F.mse_loss(pi, act)
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()
        return actor_loss.item()

    @torch.no_grad()
    def soft_update(self):
        for net, target in ((self.encoder, self.target_encoder), (self.critics, self.target_critics)):
            for p, tp in zip(net.parameters(), target.parameters()):
                tp.lerp_(p, TAU)


def main(iterations=6, batch=64):
    data = logged_dataset()
    agent = TD3BC()
    for it in range(iterations):
        idx = torch.randint(0, len(data[0]), (batch,))
        obs, act, rew, next_obs = (t[idx] for t in data)
        agent.update_critics(obs, act, rew, next_obs)
        if it % 2 == 1:  # delayed policy updates
            actor_loss = agent.update_actor(obs, act)
            agent.soft_update()
            print(f"iter {it} td {agent.td_errors[-1]:.4f} actor {actor_loss:.4f}")


if __name__ == "__main__":
    main()
