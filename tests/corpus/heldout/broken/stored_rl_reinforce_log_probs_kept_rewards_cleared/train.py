"""REINFORCE on a tiny slippery corridor: the agent starts in the middle and must reach the
right end; every step costs a little, falling off the left end ends the episode."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

GAMMA, LENGTH = 0.95, 6


class Corridor:
    def __init__(self, length=LENGTH, slip=0.1, max_steps=12):
        self.length, self.slip, self.max_steps = length, slip, max_steps

    def reset(self):
        self.pos, self.t = self.length // 2, 0
        return self._obs()

    def _obs(self):
        return torch.nn.functional.one_hot(torch.tensor(self.pos), self.length).float()

    def step(self, action):
        move = 1 if action == 1 else -1
        if random.random() < self.slip:
            move = -move
        self.pos = max(0, min(self.length - 1, self.pos + move))
        self.t += 1
        if self.pos == self.length - 1:
            return self._obs(), 1.0, True
        return self._obs(), -0.05, self.pos == 0 or self.t >= self.max_steps


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(LENGTH, 32), nn.ReLU(), nn.Linear(32, 2))
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, obs):
        return F.softmax(self.body(obs), dim=-1)


def select_action(policy, obs):
    dist = Categorical(policy(obs))
    action = dist.sample()
    policy.saved_log_probs.append(dist.log_prob(action))
    return action.item()


def finish_episode(policy, optimizer):
    returns, running = [], 0.0
    for r in reversed(policy.rewards):
        running = r + GAMMA * running
        returns.insert(0, running)
    returns = torch.tensor(returns)
    if len(returns) > 1:
        returns = (returns - returns.mean()) / (returns.std() + 1e-6)
    policy_loss = torch.stack([-lp * R for lp, R in zip(policy.saved_log_probs, returns)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    return policy_loss.item()


def main(episodes=6):
    random.seed(0)
    torch.manual_seed(0)
    env, policy = Corridor(), Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for episode in range(episodes):
        obs, done, ep_return = env.reset(), False, 0.0
        while not done:
            obs, reward, done = env.step(select_action(policy, obs))
            policy.rewards.append(reward)
            ep_return += reward
        loss = finish_episode(policy, optimizer)
        print(f"episode {episode}: return {ep_return:.2f} steps {env.t} loss {loss:.4f}")


if __name__ == "__main__":
    main()
