"""Advantage actor-critic with separate actor and critic networks and learning rates."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from optim_utils import apply_update


class A2CAgent:
    def __init__(self, obs_dim, n_actions, gamma=0.95, entropy_coef=0.01):
        self.actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=3e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-2)
        self.gamma = gamma
        self.entropy_coef = entropy_coef

    def act(self, obs):
        dist = torch.distributions.Categorical(logits=self.actor(obs))
        action = dist.sample()
        return action, dist.log_prob(action), dist.entropy()

    def discounted_returns(self, rewards):
        returns, running = [], 0.0
        for r in reversed(rewards):
            running = r + self.gamma * running
            returns.append(running)
        return torch.tensor(returns[::-1])

    def learn(self, observations, log_probs, entropies, rewards):
        values = self.critic(torch.stack(observations)).squeeze(-1)
        returns = self.discounted_returns(rewards)
        advantages = returns - values.detach()
        actor_loss = -(torch.stack(log_probs) * advantages).mean()
        critic_loss = F.mse_loss(values, returns)
        entropy = torch.stack(entropies).mean()
        loss = actor_loss + 0.5 * critic_loss - self.entropy_coef * entropy
        apply_update(loss, self.actor_opt, self.critic_opt, max_norm=0.5)
        return actor_loss.item(), critic_loss.item()
