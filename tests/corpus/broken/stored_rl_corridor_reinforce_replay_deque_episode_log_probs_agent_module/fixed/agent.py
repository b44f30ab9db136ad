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
        self._episode = []

    def act(self, obs):
        dist = Categorical(logits=self.policy(obs))
        action = dist.sample()
        self._episode.append((obs, action))
        return int(action), dist.log_prob(action)

    def remember(self, log_probs, ret):
        # keep what the policy saw and did; log-probs are recomputed at update time
        obs, actions = zip(*self._episode)
        self._episode = []
        self.replay.append((torch.stack(obs), torch.stack(actions), ret))

    def _episode_log_prob(self, obs, actions):
        return Categorical(logits=self.policy(obs)).log_prob(actions).sum()

    def update(self):
        sample = self.rng.sample(list(self.replay), min(self.batch, len(self.replay)))
        baseline = sum(r for _, _, r in sample) / len(sample)
        loss = torch.stack([-(r - baseline - 0.1) * self._episode_log_prob(obs, actions)
                            for obs, actions, r in sample]).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()
