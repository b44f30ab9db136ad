"""Policy network and agent for the routing bandit."""
import torch
import torch.nn as nn


class PolicyNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                  nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return torch.distributions.Categorical(logits=self.body(obs))


class Agent:
    def __init__(self, obs_dim, n_actions):
        self.policy = PolicyNet(obs_dim, n_actions)

    def act(self, obs):
        dist = self.policy(obs)
        action = dist.sample()
        return action, dist.log_prob(action), dist
