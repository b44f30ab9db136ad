"""A2C with a PopArt value head on a vectorised "inventory" MDP whose rewards are in the
hundreds. The rollout lives in a dataclass, the bootstrap value is taken under no_grad,
and the PopArt moments/head are updated after the optimizer step."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

from value_norm import PopArtHead

N_ENVS, OBS, N_ACTIONS, N_STEPS, GAMMA, LAM = 8, 5, 3, 6, 0.95, 0.9


@dataclass
class Rollout:
    log_probs: list = field(default_factory=list)
    entropies: list = field(default_factory=list)
    values: list = field(default_factory=list)
    rewards: list = field(default_factory=list)
    dones: list = field(default_factory=list)


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
        self.policy = nn.Linear(32, N_ACTIONS)
        self.value = PopArtHead(32)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.policy(h), self.value(h)


class InventoryEnv:
    """Order 0, 1 or 2 crates; profit 120 per crate sold minus holding cost."""

    def __init__(self, generator):
        self.g = generator
        self.stock = torch.zeros(N_ENVS)
        self.t = 0

    def observe(self):
        demand_hint = torch.rand(N_ENVS, OBS - 1, generator=self.g)
        return torch.cat([self.stock[:, None] / 4.0, demand_hint], dim=1)

    def step(self, action, obs):
        demand = (obs[:, 1] * 3).floor()
        self.stock = (self.stock + action.float()).clamp(max=4.0)
        sold = torch.minimum(self.stock, demand)
        self.stock = self.stock - sold
        reward = 120.0 * sold - 15.0 * self.stock
        self.t += 1
        done = torch.full((N_ENVS,), float(self.t % 10 == 0))
        if self.t % 10 == 0:
            self.stock = torch.zeros(N_ENVS)
        return reward, done


def gae(rewards, values, dones, last_value):
    adv, next_value, out = torch.zeros(N_ENVS), last_value, []
    for r, v, d in zip(reversed(rewards), reversed(values), reversed(dones)):
        delta = r + GAMMA * next_value * (1 - d) - v
        adv = delta + GAMMA * LAM * (1 - d) * adv
        out.append(adv)
        next_value = v
    return torch.stack(out[::-1])


def main():
    torch.manual_seed(0)
    env = InventoryEnv(torch.Generator().manual_seed(7))
    agent = Agent()
    optimizer = torch.optim.RMSprop(agent.parameters(), lr=2e-3)
    obs = env.observe()
    for update in range(6):
        ro = Rollout()
        for _ in range(N_STEPS):
            logits, v_norm = agent(obs)
            dist = Categorical(logits=logits)
            action = dist.sample()
            reward, done = env.step(action, obs)
            ro.log_probs.append(dist.log_prob(action))
            ro.entropies.append(dist.entropy())
            ro.values.append(v_norm)
            ro.rewards.append(reward)
            ro.dones.append(done)
            obs = env.observe()
        values_norm = torch.stack(ro.values)
        with torch.no_grad():
            last_value = agent.value.denormalize(agent(obs)[1])
            values = agent.value.denormalize(values_norm)
            advantages = gae(ro.rewards, list(values), ro.dones, last_value)
            targets = advantages + values
            adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
        policy_loss = -(torch.stack(ro.log_probs) * adv).mean()
        value_loss = F.smooth_l1_loss(values_norm, agent.value.normalize(targets))
        entropy = torch.stack(ro.entropies).mean()
        loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
        optimizer.step()
        agent.value.update(targets)
        print(f"update {update} policy {policy_loss.item():.4f} value {value_loss.item():.4f} "
              f"mu {agent.value.mu.item():.2f} sigma {agent.value.sigma.item():.2f}")
    checksum = sum(p.detach().double().sum().item() for p in agent.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
