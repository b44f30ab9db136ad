"""DDPG on a 1-D point mass that has to be pushed to the origin."""
import random

import torch

from ddpg import DDPG


def env_step(state, action):
    pos, vel = state
    vel = 0.9 * vel + 0.1 * action
    pos = pos + 0.1 * vel
    reward = -(pos ** 2) - 0.01 * action ** 2
    return (pos, vel), reward, abs(pos) > 2.0


def collect(agent, replay, steps):
    state = (random.uniform(-1, 1), 0.0)
    for _ in range(steps):
        action = agent.act(torch.tensor(state)).item()
        next_state, reward, done = env_step(state, action)
        replay.append((state, [action], reward, next_state, float(done)))
        state = (random.uniform(-1, 1), 0.0) if done else next_state


def batch_from(transitions):
    s, a, r, s2, d = zip(*transitions)
    return (torch.tensor(s), torch.tensor(a), torch.tensor(r), torch.tensor(s2),
            torch.tensor(d))


def main():
    random.seed(0)
    torch.manual_seed(0)
    agent = DDPG(obs_dim=2, act_dim=1)
    replay = []
    collect(agent, replay, 64)
    for it in range(5):
        collect(agent, replay, 8)
        value_loss, policy_loss = agent.update(*batch_from(random.sample(replay, 32)))
        print(f"update {it} value {value_loss:.4f} policy {policy_loss:.4f}")


if __name__ == "__main__":
    main()
