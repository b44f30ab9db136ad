"""NoisyNet layers (Fortunato et al., 2018) for exploration without epsilon-greedy."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class NoisyLinear(nn.Module):
    """Linear layer whose weights get learned-scale Gaussian noise: w = mu + sigma * eps."""

    def __init__(self, in_features, out_features, sigma0=0.1):
        super().__init__()
        bound = 1 / math.sqrt(in_features)
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features).uniform_(-bound, bound))
        self.weight_sigma = nn.Parameter(torch.full((out_features, in_features), sigma0 * bound))
        self.bias = nn.Parameter(torch.empty(out_features).uniform_(-bound, bound))
        self.register_buffer("weight_epsilon", torch.zeros(out_features, in_features))

    def forward(self, x):
        if not self.training:
            return F.linear(x, self.weight_mu, self.bias)
        self.weight_epsilon.normal_()  # new noise sample for every forward pass
        return F.linear(x, self.weight_mu + self.weight_sigma * self.weight_epsilon, self.bias)


class NoisyQNet(nn.Module):
    def __init__(self, n_obs, n_actions, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.ReLU())
        self.noisy1 = NoisyLinear(hidden, hidden)
        self.noisy2 = NoisyLinear(hidden, n_actions)

    def forward(self, obs):
        return self.noisy2(F.relu(self.noisy1(self.body(obs))))
