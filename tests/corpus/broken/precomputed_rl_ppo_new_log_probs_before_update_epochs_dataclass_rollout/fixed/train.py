"""PPO on a toy 1-D "reach the goal" corridor. Rollouts are collected with the current policy,
stored in a dataclass, then the policy/value net is updated for a few PPO epochs."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

OBS_DIM, N_ACTIONS, HORIZON = 4, 3, 32
PPO_EPOCHS, CLIP_EPS, GAMMA = 4, 0.2, 0.95


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.Tanh())
        self.pi = nn.Linear(32, N_ACTIONS)
        self.v = nn.Linear(32, 1)

    def dist(self, obs):
        return torch.distributions.Categorical(logits=self.pi(self.body(obs)))

    def value(self, obs):
        return self.v(self.body(obs)).squeeze(-1)


@dataclass
class Rollout:
    obs: torch.Tensor
    actions: torch.Tensor
    old_log_probs: torch.Tensor
    returns: torch.Tensor


def corridor_obs(pos):
    return torch.stack([pos / 10.0, (10.0 - pos) / 10.0, torch.sin(pos), torch.ones_like(pos)], -1)


@torch.no_grad()
def collect(agent):
    pos = torch.zeros(())
    obs_l, act_l, logp_l, rew_l = [], [], [], []
    for _ in range(HORIZON):
        obs = corridor_obs(pos)
        dist = agent.dist(obs)
        a = dist.sample()
        pos = (pos + (a - 1).float()).clamp(0.0, 10.0)
        obs_l.append(obs), act_l.append(a), logp_l.append(dist.log_prob(a))
        rew_l.append(-(10.0 - pos).abs() / 10.0)
    ret, returns = torch.zeros(()), []
    for r in reversed(rew_l):
        ret = r + GAMMA * ret
        returns.append(ret)
    returns.reverse()
    return Rollout(torch.stack(obs_l), torch.stack(act_l), torch.stack(logp_l), torch.stack(returns))


def train(agent, optimizer, iterations=3):
    for it in range(iterations):
        batch = collect(agent)
        with torch.no_grad():
            advantages = batch.returns - agent.value(batch.obs)
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
        for epoch in range(PPO_EPOCHS):
            new_log_probs = agent.dist(batch.obs).log_prob(batch.actions)
            ratio = torch.exp(new_log_probs - batch.old_log_probs)
            surr = torch.min(ratio * advantages,
                             ratio.clamp(1 - CLIP_EPS, 1 + CLIP_EPS) * advantages)
            policy_loss = -surr.mean()
            value_loss = F.mse_loss(agent.value(batch.obs), batch.returns)
            loss = policy_loss + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
        print(f"iter {it}: return {batch.returns[0].item():.3f} policy {policy_loss.item():.4f} "
              f"value {value_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = ActorCritic()
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-3)
    train(agent, optimizer)
