"""DQN on a 6-state chain MDP: moving right eventually pays 1.0, moving left pays a small
0.05 immediately. The agent keeps a replay buffer, an online Q-network and a target
network that is re-synchronised every few updates."""
import copy
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
N_STATES, GAMMA, BATCH, SYNC_EVERY, ENV_STEPS, WARMUP = 6, 0.9, 16, 4, 30, 20


class Chain:
    def __init__(self):
        self.s = 0

    def step(self, action):
        if action == 0:
            self.s, reward = 0, 0.05
        else:
            self.s = min(self.s + 1, N_STATES - 1)
            reward = 1.0 if self.s == N_STATES - 1 else 0.0
        return self.s, reward


def encode(states):
    return F.one_hot(torch.as_tensor(states), N_STATES).float()


class DQNAgent:
    def __init__(self):
        self.q_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, 2))
        self.target_net = copy.deepcopy(self.q_net)
        self.optimizer = torch.optim.Adam(self.target_net.parameters(), lr=5e-3)
        self.replay = deque(maxlen=500)
        self.updates = 0

    def act(self, state, epsilon):
        if random.random() < epsilon:
            return random.randrange(2)
        with torch.no_grad():
            return int(self.q_net(encode([state])).argmax(dim=1))

    def learn(self):
        batch = random.sample(self.replay, BATCH)
        s, a, r, s2 = (list(col) for col in zip(*batch))
        q = self.q_net(encode(s)).gather(1, torch.tensor(a)[:, None]).squeeze(1)
        with torch.no_grad():
            target = torch.tensor(r) + GAMMA * self.target_net(encode(s2)).max(dim=1).values
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.updates += 1
        if self.updates % SYNC_EVERY == 0:
            self.target_net.load_state_dict(self.q_net.state_dict())
        return loss.item()


agent, env = DQNAgent(), Chain()
state = env.s
for t in range(ENV_STEPS):
    action = agent.act(state, epsilon=max(0.1, 1.0 - t / ENV_STEPS))
    next_state, reward = env.step(action)
    agent.replay.append((state, action, reward, next_state))
    state = next_state
    if len(agent.replay) >= WARMUP:
        print(f"t {t} td-loss {agent.learn():.4f}")
with torch.no_grad():
    q_values = agent.q_net(encode(list(range(N_STATES))))
print("greedy actions", q_values.argmax(dim=1).tolist())
print(f"q checksum {q_values.sum().item():.4f}")
