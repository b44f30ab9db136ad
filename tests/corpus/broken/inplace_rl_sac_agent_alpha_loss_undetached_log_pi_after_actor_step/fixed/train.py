"""Soft actor-critic with automatic entropy tuning on a 1-D reaching task.

The agent updates critic, actor and temperature in turn from one replay batch, the
usual SAC order. The actor's sampled log-probabilities are reused for the
temperature loss to save a second policy forward.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

torch.manual_seed(4)
OBS, ACT, HIDDEN = 3, 1, 32


class GaussianActor(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(OBS, HIDDEN), nn.ReLU(),
                                   nn.Linear(HIDDEN, HIDDEN), nn.ReLU())
        self.head = nn.Linear(HIDDEN, 2 * ACT)

    def forward(self, obs):
        mu, log_std = self.head(self.trunk(obs)).chunk(2, dim=-1)
        std = log_std.clamp(-5.0, 2.0).exp()
        u = mu + std * torch.randn_like(mu)
        action = torch.tanh(u)
        log_pi = Normal(mu, std).log_prob(u) - torch.log(1.0 - action.pow(2) + 1e-6)
        return action, log_pi.sum(dim=-1)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS + ACT, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))

    def forward(self, obs, action):
        return self.net(torch.cat([obs, action], dim=-1)).squeeze(-1)


class SACAgent:
    def __init__(self, gamma=0.95, tau=0.05, lr=3e-3):
        self.gamma, self.tau = gamma, tau
        self.actor = GaussianActor()
        self.critic = Critic()
        self.critic_targ = copy.deepcopy(self.critic).requires_grad_(False)
        self.log_alpha = torch.zeros((), requires_grad=True)
        self.target_entropy = -float(ACT)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=lr)

    @property
    def alpha(self):
        return self.log_alpha.exp()

    def update(self, obs, act, rew, next_obs):
        with torch.no_grad():
            next_act, next_logp = self.actor(next_obs)
            soft_q = self.critic_targ(next_obs, next_act) - self.alpha * next_logp
            target = rew + self.gamma * soft_q
        critic_loss = F.mse_loss(self.critic(obs, act), target)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        action, log_pi = self.actor(obs)
        actor_loss = (self.alpha.detach() * log_pi - self.critic(obs, action)).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        alpha_loss = -(self.log_alpha * (log_pi.detach() + self.target_entropy)).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()

        with torch.no_grad():
            for p, p_targ in zip(self.critic.parameters(), self.critic_targ.parameters()):
                p_targ.lerp_(p, self.tau)
        return critic_loss.item(), actor_loss.item(), self.alpha.item()


def env_step(obs, action):
    pos, vel, goal = obs.unbind(-1)
    vel = 0.8 * vel + 0.2 * action.squeeze(-1)
    pos = pos + vel
    reward = -(pos - goal).pow(2)
    return torch.stack([pos, vel, goal], dim=-1), reward


def collect(n=128):
    obs = torch.randn(n, OBS)
    act = torch.rand(n, ACT) * 2.0 - 1.0
    next_obs, rew = env_step(obs, act)
    return obs, act, rew, next_obs


if __name__ == "__main__":
    agent = SACAgent()
    buffer = collect()
    for it in range(6):
        idx = torch.randint(0, 128, (32,))
        c, a, alpha = agent.update(*(t[idx] for t in buffer))
        print(f"iter {it} critic {c:.4f} actor {a:.4f} alpha {alpha:.4f}")
    params = list(agent.actor.parameters()) + list(agent.critic.parameters())
    print("checksum", sum(p.sum().item() for p in params) + agent.log_alpha.item())
