"""Advantage actor-critic on a tiny chain environment: a shared trunk with policy and
value heads; the policy loss (with detached advantages), value loss and entropy bonus
are summed into one backward per episode."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(19)
N_STATES, GAMMA = 5, 0.9


class ChainEnv:
    """Move left/right along a chain; reward 1 for reaching the right end."""

    def reset(self):
        self.pos = 0
        return self.obs()

    def obs(self):
        return F.one_hot(torch.tensor(self.pos), N_STATES).float()

    def step(self, action):
        self.pos = max(0, min(N_STATES - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == N_STATES - 1
        return self.obs(), float(done), done


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(N_STATES, 16), nn.Tanh())
        self.policy = nn.Linear(16, 2)
        self.value = nn.Linear(16, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.policy(h), self.value(h).squeeze(-1)


def run_episode(env, model, max_steps=10):
    log_probs, values, rewards, entropies = [], [], [], []
    obs = env.reset()
    for _ in range(max_steps):
        logits, value = model(obs)
        dist = Categorical(logits=logits)
        action = dist.sample()
        obs, reward, done = env.step(action.item())
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        values.append(value)
        rewards.append(reward)
        if done:
            break
    return torch.stack(log_probs), torch.stack(values), rewards, torch.stack(entropies)


env, model = ChainEnv(), ActorCritic()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for episode in range(6):
    log_probs, values, rewards, entropies = run_episode(env, model)
    returns, g = [], 0.0
    for r in reversed(rewards):
        g = r + GAMMA * g
        returns.insert(0, g)
    returns = torch.tensor(returns)
    advantages = returns - values.detach()
    actor_loss = -(log_probs * advantages).mean()
    critic_loss = F.smooth_l1_loss(values, returns)
    loss = actor_loss + 0.5 * critic_loss - 0.01 * entropies.mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"episode {episode} length {len(rewards)} return {returns[0].item():.6f} "
          f"loss {loss.item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
