"""DDPG agent: deterministic actor, Q critic, Polyak-averaged target copies of both."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from util import hard_update, soft_update


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1)).squeeze(-1)


class DDPG:
    def __init__(self, obs_dim, act_dim, gamma=0.95, tau=0.05):
        self.actor, self.actor_target = Actor(obs_dim, act_dim), Actor(obs_dim, act_dim)
        self.critic, self.critic_target = Critic(obs_dim, act_dim), Critic(obs_dim, act_dim)
        hard_update(self.actor_target, self.actor)
        hard_update(self.critic_target, self.critic)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma, self.tau = gamma, tau

    def act(self, obs, noise=0.1):
        with torch.no_grad():
            action = self.actor(obs)
        return (action + noise * torch.randn_like(action)).clamp(-1, 1)

    def update(self, obs, act, rew, next_obs, done):
        next_q = self.critic_target(next_obs, self.actor_target(next_obs))
        target_q = rew + self.gamma * (1.0 - done) * next_q
        value_loss = F.mse_loss(self.critic(obs, act), target_q)
        self.critic_optim.zero_grad()
        value_loss.backward()
        self.critic_optim.step()

        policy_loss = -self.critic(obs, self.actor(obs)).mean()
        self.actor_optim.zero_grad()
        policy_loss.backward()
        self.actor_optim.step()

        soft_update(self.actor_target, self.actor, self.tau)
        soft_update(self.critic_target, self.critic, self.tau)
        return value_loss.item(), policy_loss.item()
