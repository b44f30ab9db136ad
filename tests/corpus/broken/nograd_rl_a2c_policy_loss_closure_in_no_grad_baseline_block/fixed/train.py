"""Advantage actor-critic on a small corridor world: four parallel walkers start at the
left end and get a reward for reaching the right end. The policy and the value network
are trained with separate optimizers after every rollout."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
LENGTH, N_ENVS, HORIZON, GAMMA, UPDATES = 7, 4, 8, 0.95, 6


class Corridor:
    """Actions: 0 = left, 1 = stay, 2 = right. Reward 1 at the right end, -0.01 per step."""

    def __init__(self, n):
        self.pos = torch.zeros(n, dtype=torch.long)

    def observe(self):
        return F.one_hot(self.pos, LENGTH).float()

    def step(self, action):
        self.pos = (self.pos + action - 1).clamp(0, LENGTH - 1)
        done = self.pos == LENGTH - 1
        reward = torch.where(done, torch.ones(len(self.pos)), torch.full((len(self.pos),), -0.01))
        self.pos = torch.where(done, torch.zeros_like(self.pos), self.pos)
        return reward


@torch.no_grad()
def collect_rollout(policy, env):
    states, actions, rewards = [], [], []
    for _ in range(HORIZON):
        obs = env.observe()
        action = Categorical(logits=policy(obs)).sample()
        states.append(obs)
        actions.append(action)
        rewards.append(env.step(action))
    returns, running = [], torch.zeros(N_ENVS)
    for r in reversed(rewards):
        running = r + GAMMA * running
        returns.insert(0, running)
    return torch.cat(states), torch.cat(actions), torch.cat(returns)


def train():
    policy = nn.Sequential(nn.Linear(LENGTH, 32), nn.Tanh(), nn.Linear(32, 3))
    value_net = nn.Sequential(nn.Linear(LENGTH, 32), nn.Tanh(), nn.Linear(32, 1))
    policy_opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    value_opt = torch.optim.Adam(value_net.parameters(), lr=1e-2)
    env = Corridor(N_ENVS)

    def policy_loss_fn():
        dist = Categorical(logits=policy(states))
        entropy = dist.entropy().mean()
        return -(dist.log_prob(actions) * advantages).mean() - 0.01 * entropy

    for update in range(UPDATES):
        states, actions, returns = collect_rollout(policy, env)
        with torch.no_grad():
            baseline = value_net(states).squeeze(-1)
            advantages = returns - baseline
            advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-6)
        policy_loss = policy_loss_fn()
        value_loss = F.mse_loss(value_net(states).squeeze(-1), returns)

        policy_opt.zero_grad()
        policy_loss.backward()
        policy_opt.step()
        value_opt.zero_grad()
        value_loss.backward()
        value_opt.step()
        print(f"update {update} policy {policy_loss.item():.4f} value {value_loss.item():.4f} "
              f"mean return {returns.mean().item():.3f}")
    return policy


if __name__ == "__main__":
    trained = train()
    print(f"checksum {sum(p.sum().item() for p in trained.parameters()):.4f}")
