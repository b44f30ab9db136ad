"""REINFORCE with a running baseline on a small gridworld.

The policy keeps per-episode lists of log-probabilities and rewards. finish_episode()
turns them into one loss, backpropagates, steps, and then empties both lists in place, so
the next episode starts with fresh buffers and no reference to the freed graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(29)
SIZE, GAMMA, MAX_STEPS = 4, 0.95, 12
MOVES = torch.tensor([[0, 1], [0, -1], [1, 0], [-1, 0]])


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * SIZE, 32), nn.Tanh(), nn.Linear(32, 4))
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, pos):
        obs = torch.cat([F.one_hot(pos[0], SIZE), F.one_hot(pos[1], SIZE)]).float()
        return Categorical(logits=self.net(obs))


def run_episode(policy):
    pos = torch.tensor([0, 0])
    for _ in range(MAX_STEPS):
        dist = policy(pos)
        action = dist.sample()
        policy.saved_log_probs.append(dist.log_prob(action))
        pos = (pos + MOVES[action]).clamp(0, SIZE - 1)
        at_goal = bool((pos == SIZE - 1).all())
        policy.rewards.append(1.0 if at_goal else -0.05)
        if at_goal:
            break
    return sum(policy.rewards)


def finish_episode(policy, optimizer, baseline):
    returns, g = [], 0.0
    for r in reversed(policy.rewards):
        g = r + GAMMA * g
        returns.insert(0, g)
    returns = torch.tensor(returns)
    advantage = returns - baseline
    loss = -(torch.stack(policy.saved_log_probs) * advantage).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    del policy.saved_log_probs[:]
    del policy.rewards[:]
    return loss.item(), returns[0].item()


def main(episodes=6):
    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    baseline = 0.0
    for ep in range(episodes):
        ep_return = run_episode(policy)
        n_steps = len(policy.rewards)
        loss, g0 = finish_episode(policy, optimizer, baseline)
        baseline = 0.8 * baseline + 0.2 * g0
        print(f"episode {ep} steps {n_steps} return {ep_return:.3f} loss {loss:.6f} baseline {baseline:.6f}")
    print(f"checksum {sum(p.sum().item() for p in policy.parameters()):.6f}")


if __name__ == "__main__":
    main()
