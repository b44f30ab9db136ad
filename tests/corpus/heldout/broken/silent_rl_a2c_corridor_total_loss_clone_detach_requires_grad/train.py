"""Advantage actor-critic on a short corridor: the agent starts in the middle and is paid
for reaching the right end. Policy and value heads share one trunk; the three loss terms
are combined into a single objective each update."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CELLS, MAX_STEPS, GAMMA = 7, 10, 0.95


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(N_CELLS, 32), nn.Tanh())
        self.policy = nn.Linear(32, 2)
        self.value = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.policy(h), self.value(h).squeeze(-1)


@dataclass
class Rollout:
    log_probs: list = field(default_factory=list)
    values: list = field(default_factory=list)
    entropies: list = field(default_factory=list)
    rewards: list = field(default_factory=list)


def run_episode(net, generator):
    pos, roll = N_CELLS // 2, Rollout()
    for _ in range(MAX_STEPS):
        logits, value = net(F.one_hot(torch.tensor(pos), N_CELLS).float())
        dist = torch.distributions.Categorical(logits=logits)
        action = torch.multinomial(dist.probs, 1, generator=generator).squeeze()
        roll.log_probs.append(dist.log_prob(action))
        roll.values.append(value)
        roll.entropies.append(dist.entropy())
        pos = max(0, min(N_CELLS - 1, pos + (1 if action.item() == 1 else -1)))
        done = pos == N_CELLS - 1
        roll.rewards.append(1.0 if done else -0.05)
        if done:
            break
    return roll


def discounted(rewards):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + GAMMA * g
        out.append(g)
    return torch.tensor(out[::-1])


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    net = ActorCritic()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=7e-3)
    for episode in range(6):
        roll = run_episode(net, gen)
        returns = discounted(roll.rewards)
        values = torch.stack(roll.values)
        advantage = returns - values.detach()
        actor_loss = -(torch.stack(roll.log_probs) * advantage).mean()
        critic_loss = F.mse_loss(values, returns)
        entropy = torch.stack(roll.entropies).mean()
        total = actor_loss + 0.5 * critic_loss - 0.01 * entropy
        loss = total.clone().detach().requires_grad_(True)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"episode {episode} length {len(roll.rewards)} return {returns[0].item():.3f} "
              f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
