"""Double DQN on a 9-cell corridor: the agent starts in the middle and is paid +1 for
reaching the right end, -1 for the left end, with a small step cost."""
import copy
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

from dqn_utils import epsilon_greedy, hard_update, linear_epsilon, td_terms

N_CELLS, N_ACTIONS, GAMMA, BATCH = 9, 2, 0.95, 16


class Corridor:
    def reset(self):
        self.pos = N_CELLS // 2
        return self.observe()

    def observe(self):
        return F.one_hot(torch.tensor(self.pos), N_CELLS).float()

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        if self.pos == N_CELLS - 1:
            return self.observe(), 1.0, True
        if self.pos == 0:
            return self.observe(), -1.0, True
        return self.observe(), -0.01, False


def sample(buffer, n):
    obs, actions, rewards, next_obs, dones = zip(*random.sample(buffer, n))
    return (torch.stack(obs), torch.tensor(actions), torch.tensor(rewards),
            torch.stack(next_obs), torch.tensor(dones, dtype=torch.float32))


def train(env_steps=60, sync_every=20):
    random.seed(0)
    torch.manual_seed(0)
    env = Corridor()
    q_net = nn.Sequential(nn.Linear(N_CELLS, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
    target_net = copy.deepcopy(q_net).requires_grad_(False)
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-2)
    replay = deque(maxlen=500)
    obs, episode_return, returns = env.reset(), 0.0, []
    for t in range(env_steps):
        action = epsilon_greedy(q_net, obs, linear_epsilon(t), N_ACTIONS)
        next_obs, reward, done = env.step(action)
        replay.append((obs, action, reward, next_obs, done))
        episode_return += reward
        obs = env.reset() if done else next_obs
        if done:
            returns.append(episode_return)
            episode_return = 0.0
        if len(replay) >= BATCH:
            q_sa, td_target = td_terms(q_net, target_net, sample(replay, BATCH), GAMMA)
            loss = F.smooth_l1_loss(q_sa, td_target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if t % 10 == 0:
                print(f"t {t} td loss {loss.item():.4f} episodes {len(returns)}")
        if t % sync_every == 0:
            hard_update(target_net, q_net)
    return returns


if __name__ == "__main__":
    print("returns", [round(r, 2) for r in train()])
