import random
from collections import deque

import torch
import torch.nn as nn
from torch.distributions import Categorical


class ReplayReinforceAgent:
    """REINFORCE that re-uses a few recent episodes per update."""

    def __init__(self, n_states, n_actions, capacity=6, batch=3, lr=1e-2, seed=0):
        self.policy = nn.Sequential(nn.Linear(n_states, 32), nn.Tanh(), nn.Linear(32, n_actions))
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.replay = deque(maxlen=capacity)
        self.batch = batch
        self.rng = random.Random(seed)

    def act(self, obs):
        dist = Categorical(logits=self.policy(obs))
        action = dist.sample()
        return int(action), dist.log_prob(action)

    def remember(self, log_probs, ret):
        self.replay.append((torch.stack(log_probs).sum(), ret))

    def update(self):
        sample = self.rng.sample(list(self.replay), min(self.batch, len(self.replay)))
        baseline = sum(r for _, r in sample) / len(sample)
        loss = torch.stack([-(r - baseline - 0.1) * lp for lp, r in sample]).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()
