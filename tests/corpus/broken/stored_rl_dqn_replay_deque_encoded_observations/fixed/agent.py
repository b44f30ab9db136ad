"""DQN agent with a learned observation encoder and an experience-replay deque."""
import random
from collections import deque
from typing import NamedTuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Transition(NamedTuple):
    obs: torch.Tensor
    action: int
    reward: float
    next_obs: torch.Tensor
    done: bool


class EncodedDQN:
    def __init__(self, obs_dim, n_actions, capacity=64, gamma=0.9, lr=1e-2):
        self.encoder = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, 16))
        self.q_head = nn.Linear(16, n_actions)
        params = list(self.encoder.parameters()) + list(self.q_head.parameters())
        self.optimizer = torch.optim.Adam(params, lr=lr)
        self.memory = deque(maxlen=capacity)
        self.n_actions, self.gamma = n_actions, gamma

    def encode(self, obs):
        return self.encoder(obs)

    def act(self, code, epsilon):
        if random.random() < epsilon:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return int(self.q_head(code).argmax())

    def remember(self, obs, action, reward, next_obs, done):
        # keep the raw observations; learn() encodes them with the current encoder
        self.memory.append(Transition(obs, action, reward, next_obs, done))

    def learn(self, batch_size):
        batch = random.sample(self.memory, batch_size)
        codes = self.encode(torch.stack([t.obs for t in batch]))
        actions = torch.tensor([t.action for t in batch])
        rewards = torch.tensor([t.reward for t in batch])
        done = torch.tensor([float(t.done) for t in batch])
        q = self.q_head(codes).gather(1, actions[:, None]).squeeze(1)
        with torch.no_grad():
            next_codes = self.encode(torch.stack([t.next_obs for t in batch]))
            next_q = self.q_head(next_codes).max(1).values
            target = rewards + self.gamma * (1 - done) * next_q
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
