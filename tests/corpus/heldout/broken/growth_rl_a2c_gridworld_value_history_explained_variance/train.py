"""Synchronous advantage actor-critic (A2C) on a batch of 8 gridworlds (reach the corner).

After training the script reports the explained variance of the critic over the whole run,
so every update's value predictions and returns are kept.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

N_ENVS, SIZE, N_STEPS, UPDATES, GAMMA = 8, 4, 5, 10, 0.95
MOVES = torch.tensor([[0, 1], [1, 0], [0, -1], [-1, 0]])

torch.manual_seed(0)


def observe(pos):
    obs = torch.zeros(N_ENVS, SIZE * SIZE)
    obs[torch.arange(N_ENVS), pos[:, 0] * SIZE + pos[:, 1]] = 1.0
    return obs


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(SIZE * SIZE, 64), nn.Tanh())
        self.pi = nn.Linear(64, 4)
        self.v = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


model = ActorCritic()
optimizer = torch.optim.RMSprop(model.parameters(), lr=7e-4, alpha=0.99, eps=1e-5)
pos = torch.zeros(N_ENVS, 2, dtype=torch.long)
all_values, all_returns = [], []

for update in range(UPDATES):
    log_probs, values, rewards, entropies, dones = [], [], [], [], []
    for _ in range(N_STEPS):
        logits, value = model(observe(pos))
        dist = Categorical(logits=logits)
        action = dist.sample()
        pos = (pos + MOVES[action]).clamp(0, SIZE - 1)
        done = (pos == SIZE - 1).all(dim=1)
        rewards.append(done.float() - 0.01)
        dones.append(done.float())
        log_probs.append(dist.log_prob(action))
        values.append(value)
        entropies.append(dist.entropy())
        pos[done] = 0

    with torch.no_grad():
        ret = model(observe(pos))[1]
    returns = []
    for r, d in zip(reversed(rewards), reversed(dones)):
        ret = r + GAMMA * ret * (1 - d)
        returns.insert(0, ret)
    returns, values = torch.stack(returns), torch.stack(values)
    advantages = returns - values

    policy_loss = -(torch.stack(log_probs) * advantages.detach()).mean()
    value_loss = F.mse_loss(values, returns)
    entropy = torch.stack(entropies).mean()
    loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()

    all_values.append(values)
    all_returns.append(returns)
    print(f"update {update} policy {policy_loss.item():+.4f} value {value_loss.item():.4f} "
          f"entropy {entropy.item():.4f}")

v, r = torch.cat(all_values).flatten(), torch.cat(all_returns).flatten()
explained_var = 1 - (r - v).var() / r.var()
print(f"explained variance over the run {explained_var.item():.4f}")
