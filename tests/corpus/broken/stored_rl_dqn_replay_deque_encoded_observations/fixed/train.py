"""Train EncodedDQN on a small corridor task: the agent walks left/right/stays on a line of
cells and is rewarded for reaching the right end. Observations are noisy one-hot positions."""
import random

import torch

from agent import EncodedDQN

N_CELLS, BATCH, CAPACITY = 8, 4, 4


def observe(pos):
    obs = torch.zeros(N_CELLS)
    obs[pos] = 1.0
    return obs + 0.05 * torch.randn(N_CELLS)


def step(pos, action):
    pos = min(max(pos + (action - 1), 0), N_CELLS - 1)
    done = pos == N_CELLS - 1
    return pos, (1.0 if done else -0.05), done


def run(n_steps=10):
    random.seed(0)
    torch.manual_seed(0)
    agent = EncodedDQN(obs_dim=N_CELLS, n_actions=3, capacity=CAPACITY)
    pos = 0
    for t in range(n_steps):
        obs = observe(pos)
        with torch.no_grad():
            code = agent.encode(obs)
        action = agent.act(code, epsilon=0.5)
        pos, reward, done = step(pos, action)
        agent.remember(obs, action, reward, observe(pos), done)
        if done:
            pos = 0
        if len(agent.memory) >= BATCH:
            loss = agent.learn(BATCH)
            print(f"step {t} pos {pos} reward {reward:+.2f} td loss {loss:.4f}")


if __name__ == "__main__":
    run()
