"""One-step actor-critic on a small gridworld with a Polyak-averaged target critic. The TD
target is computed by the target critic, the advantage is treated as a constant for the
actor, and actor and critic losses are summed into a single backward per update."""
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

SIZE, GAMMA, TAU = 4, 0.9, 0.1
MOVES = [(-1, 0), (1, 0), (0, -1), (0, 1)]


class GridWorld:
    def reset(self):
        self.r, self.c, self.t = 0, 0, 0
        return self.obs()

    def obs(self):
        o = torch.zeros(2 * SIZE)
        o[self.r], o[SIZE + self.c] = 1.0, 1.0
        return o

    def step(self, a):
        dr, dc = MOVES[a]
        self.r = min(SIZE - 1, max(0, self.r + dr))
        self.c = min(SIZE - 1, max(0, self.c + dc))
        self.t += 1
        goal = self.r == SIZE - 1 and self.c == SIZE - 1
        return self.obs(), (1.0 if goal else -0.02), goal or self.t >= 12


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2 * SIZE, 32), nn.Tanh())
        self.policy = nn.Linear(32, len(MOVES))
        self.value = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.policy(h), self.value(h).squeeze(-1)


def main(episodes=5):
    random.seed(0)
    torch.manual_seed(0)
    env, net = GridWorld(), ActorCritic()
    target = copy.deepcopy(net).requires_grad_(False)
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
    for ep in range(episodes):
        obs, done, ret = env.reset(), False, 0.0
        while not done:
            logits, value = net(obs)
            dist = Categorical(logits=logits)
            action = dist.sample()
            next_obs, reward, done = env.step(action.item())
            with torch.no_grad():
                _, next_value = target(next_obs)
                td_target = reward + GAMMA * next_value * (0.0 if done else 1.0)
            advantage = (td_target - value).detach()
            actor_loss = -dist.log_prob(action) * advantage - 0.01 * dist.entropy()
            critic_loss = F.smooth_l1_loss(value, td_target)
            optimizer.zero_grad()
            (actor_loss + critic_loss).backward()
            optimizer.step()
            with torch.no_grad():
                for p_t, p in zip(target.parameters(), net.parameters()):
                    p_t.lerp_(p, TAU)
            obs, ret = next_obs, ret + reward
        print(f"episode {ep}: return {ret:+.2f} steps {env.t} critic {critic_loss.item():.4f}")
    checksum = sum(p.double().sum().item() for p in net.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
