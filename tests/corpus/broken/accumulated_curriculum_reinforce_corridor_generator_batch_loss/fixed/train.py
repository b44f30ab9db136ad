"""Curriculum REINFORCE on a 1-D corridor: the agent starts at the left end and must walk to
a goal whose distance grows level by level. Episodes are produced by a curriculum
generator; the policy is updated every UPDATE_EVERY episodes from the summed episode losses,
with a running-mean baseline."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

MAX_LEN, UPDATE_EVERY, EPISODES_PER_LEVEL, GAMMA = 8, 2, 4, 0.95


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(MAX_LEN + 1, 32), nn.Tanh(), nn.Linear(32, 2))

    def forward(self, obs):
        return self.net(obs)


def observe(pos, goal):
    obs = torch.zeros(MAX_LEN + 1)
    obs[pos] = 1.0
    obs[-1] = goal / MAX_LEN
    return obs


def curriculum(levels):
    for level in levels:
        for k in range(EPISODES_PER_LEVEL):
            yield level, k, level + 1  # goal distance grows with the level


def run_episode(policy, goal, max_steps=12):
    pos, log_probs, rewards = 0, [], []
    for _ in range(max_steps):
        dist = Categorical(logits=policy(observe(pos, goal)))
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        pos = min(max(pos + (1 if action.item() == 1 else -1), 0), MAX_LEN - 1)
        rewards.append(1.0 if pos == goal else -0.05)
        if pos == goal:
            break
    return torch.stack(log_probs), rewards


def discounted(rewards):
    out, running = [], 0.0
    for r in reversed(rewards):
        running = r + GAMMA * running
        out.insert(0, running)
    return torch.tensor(out)


def train():
    torch.manual_seed(0)
    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    baseline, batch_loss, current_level = 0.0, 0.0, None
    for level, k, goal in curriculum(levels=[1, 2]):
        if level != current_level:  # a new level starts a fresh batch
            current_level, batch_loss = level, 0.0
        log_probs, rewards = run_episode(policy, goal)
        returns = discounted(rewards)
        episode_loss = -(log_probs * (returns - baseline)).sum()
        batch_loss = batch_loss + episode_loss / UPDATE_EVERY
        baseline = 0.8 * baseline + 0.2 * returns[0].item()
        if (k + 1) % UPDATE_EVERY == 0:
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
            print(f"level {level} episode {k}: steps {len(rewards)} return {returns[0]:.3f} "
                  f"batch loss {batch_loss.item():.4f}")
            batch_loss = 0.0


if __name__ == "__main__":
    train()
