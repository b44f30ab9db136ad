"""Double DQN with NoisyNet exploration on a small chain MDP (walk right to reach the
goal, small step cost). The agent is a dataclass holding the online/target networks, the
optimizer and the replay buffer."""
import copy
import random
from collections import deque
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

from noisy import NoisyQNet

N_STATES, N_ACTIONS = 8, 2


class Chain:
    def __init__(self, rng):
        self.rng = rng
        self.pos = 0

    def reset(self):
        self.pos = self.rng.randrange(N_STATES - 1)
        return self.obs()

    def obs(self):
        return F.one_hot(torch.tensor(self.pos), N_STATES).float()

    def step(self, action):
        self.pos = max(0, min(N_STATES - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == N_STATES - 1
        return self.obs(), (1.0 if done else -0.05), done


@dataclass
class DQNAgent:
    online: nn.Module
    gamma: float = 0.95
    lr: float = 1e-2
    batch_size: int = 32
    target_every: int = 4
    buffer: deque = field(default_factory=lambda: deque(maxlen=2000))

    def __post_init__(self):
        self.target = copy.deepcopy(self.online)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=self.lr)
        self.updates = 0

    def act(self, obs):
        with torch.no_grad():
            return int(self.online(obs.unsqueeze(0)).argmax(dim=1))

    def sample(self, rng):
        batch = rng.sample(list(self.buffer), self.batch_size)
        s, a, r, s2, d = zip(*batch)
        return (torch.stack(s), torch.tensor(a), torch.tensor(r),
                torch.stack(s2), torch.tensor(d, dtype=torch.float32))

    def learn(self, rng):
        s, a, r, s2, done = self.sample(rng)
        q = self.online(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            best = self.online(s2).argmax(dim=1, keepdim=True)   # online net picks ...
            next_q = self.target(s2).gather(1, best).squeeze(1)  # ... target net evaluates
            target = r + self.gamma * (1.0 - done) * next_q
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.updates += 1
        if self.updates % self.target_every == 0:
            self.target.load_state_dict(self.online.state_dict())
        return loss.item()


def main():
    torch.manual_seed(0)
    rng = random.Random(0)
    env = Chain(rng)
    agent = DQNAgent(NoisyQNet(N_STATES, N_ACTIONS))
    obs = env.reset()
    for _ in range(120):                       # warm-up with random actions
        action = rng.randrange(N_ACTIONS)
        nxt, reward, done = env.step(action)
        agent.buffer.append((obs, action, reward, nxt, done))
        obs = env.reset() if done else nxt
    for step in range(6):
        for _ in range(8):
            action = agent.act(obs)
            nxt, reward, done = env.step(action)
            agent.buffer.append((obs, action, reward, nxt, done))
            obs = env.reset() if done else nxt
        loss = agent.learn(rng)
        print(f"update {step} td loss {loss:.5f}")


if __name__ == "__main__":
    main()
