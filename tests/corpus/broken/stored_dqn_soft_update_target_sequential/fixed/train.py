"""DQN with Polyak-averaged target network on a tiny chain MDP (5 states, 2 actions)."""
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STATES, N_ACTIONS, GAMMA, TAU, BATCH = 5, 2, 0.9, 0.05, 8


def step_env(s, a):
    s2 = min(s + 1, N_STATES - 1) if a == 1 else max(s - 1, 0)
    return s2, float(s2 == N_STATES - 1)


def one_hot(states):
    return F.one_hot(torch.tensor(states), N_STATES).float()


random.seed(0)
torch.manual_seed(0)
q_net = nn.Sequential(nn.Linear(N_STATES, 24), nn.ReLU(), nn.Linear(24, N_ACTIONS))
target_net = copy.deepcopy(q_net)
for p in target_net.parameters():
    p.requires_grad_(False)
optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-2)

replay, s = [], 0
for t in range(40):
    a = random.randrange(N_ACTIONS)
    s2, r = step_env(s, a)
    replay.append((s, a, r, s2))
    s = 0 if s2 == N_STATES - 1 else s2

for update in range(6):
    batch = random.sample(replay, BATCH)
    states, actions, rewards, next_states = zip(*batch)
    q = q_net(one_hot(states)).gather(1, torch.tensor(actions).unsqueeze(1)).squeeze(1)
    next_q = target_net(one_hot(next_states)).max(1).values
    td_target = torch.tensor(rewards) + GAMMA * next_q
    loss = F.smooth_l1_loss(q, td_target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for tp, p in zip(target_net.parameters(), q_net.parameters()):
            tp.copy_(TAU * p + (1 - TAU) * tp)
    print(f"update {update}: td loss {loss.item():.4f}")
