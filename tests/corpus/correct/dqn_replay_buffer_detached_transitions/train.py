"""DQN on a small corridor environment with a replay buffer and a target network.

Actions are chosen from Q-values computed under no_grad, and the transitions pushed into
the deque hold plain (detached) tensors. Each learning step samples a minibatch, builds
TD targets from the frozen target network under no_grad, and the target is hard-synced
with load_state_dict every few updates.
"""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
rng = random.Random(1)
N_STATES, N_ACTIONS, GAMMA = 7, 2, 0.9


class Corridor:
    """Walk left/right; reward 1 at the right end, small penalty per step."""

    def reset(self):
        self.pos = N_STATES // 2
        return self.obs()

    def obs(self):
        return F.one_hot(torch.tensor(self.pos), N_STATES).float()

    def step(self, action):
        self.pos = max(0, min(N_STATES - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos in (0, N_STATES - 1)
        reward = 1.0 if self.pos == N_STATES - 1 else -0.05
        return self.obs(), reward, done


def make_q():
    return nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))


q_net, target_net = make_q(), make_q()
target_net.load_state_dict(q_net.state_dict())
target_net.requires_grad_(False)
optimizer = torch.optim.Adam(q_net.parameters(), lr=5e-3)
buffer = deque(maxlen=200)
env = Corridor()
obs = env.reset()


def act(observation, epsilon):
    if rng.random() < epsilon:
        return rng.randrange(N_ACTIONS)
    with torch.no_grad():
        return int(q_net(observation).argmax())


def env_step(epsilon):
    global obs
    action = act(obs, epsilon)
    next_obs, reward, done = env.step(action)
    buffer.append((obs, torch.tensor(action), torch.tensor(reward), next_obs, torch.tensor(float(done))))
    obs = env.reset() if done else next_obs


for _ in range(24):
    env_step(epsilon=1.0)

for update in range(8):
    env_step(epsilon=0.3)
    batch = rng.sample(list(buffer), 16)
    s, a, r, s2, d = (torch.stack(col) for col in zip(*batch))
    q_sa = q_net(s).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        target = r + GAMMA * (1 - d) * target_net(s2).max(1).values
    loss = F.smooth_l1_loss(q_sa, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if update % 3 == 2:
        target_net.load_state_dict(q_net.state_dict())
    print(f"update {update} td loss {loss.item():.6f} buffer {len(buffer)}")

with torch.no_grad():
    greedy = q_net(torch.eye(N_STATES)).argmax(1).tolist()
print(f"greedy policy {greedy}")
print(f"checksum {sum(p.sum().item() for p in q_net.parameters()):.6f}")
