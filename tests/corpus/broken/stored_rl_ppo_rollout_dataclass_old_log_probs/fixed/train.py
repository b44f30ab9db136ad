"""PPO on a vectorised 1-D 'park the cart' task: each env starts at a random position and
is rewarded for staying close to the origin. Rollouts are kept in a RolloutBuffer dataclass
and the policy is updated for a few epochs of shuffled minibatches per rollout."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ENVS, HORIZON, PPO_EPOCHS, MINIBATCHES = 8, 12, 3, 2
GAMMA, LAM, CLIP = 0.97, 0.9, 0.2
ACTIONS = torch.tensor([-0.2, 0.0, 0.2])


def env_step(pos, action):
    pos = (pos + ACTIONS[action]).clamp(-1.5, 1.5)
    return pos, -pos.abs()


@dataclass
class RolloutBuffer:
    obs: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    log_probs: list = field(default_factory=list)
    values: list = field(default_factory=list)
    rewards: list = field(default_factory=list)

    def add(self, obs, action, log_prob, value, reward):
        self.obs.append(obs)
        self.actions.append(action)
        self.log_probs.append(log_prob.detach())
        self.values.append(value.detach())
        self.rewards.append(reward)

    def advantages(self, last_value):
        adv, gae = [], torch.zeros(N_ENVS)
        values = self.values + [last_value]
        for t in reversed(range(len(self.rewards))):
            delta = self.rewards[t] + GAMMA * values[t + 1] - values[t]
            gae = delta + GAMMA * LAM * gae
            adv.insert(0, gae)
        adv = torch.stack(adv)
        return adv, adv + torch.stack(self.values)


class ActorCritic(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(2, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, len(ACTIONS))
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return torch.distributions.Categorical(logits=self.policy(h)), self.value(h).squeeze(-1)


def observe(pos):
    return torch.stack([pos, pos.sign()], dim=-1)


def main():
    torch.manual_seed(0)
    agent = ActorCritic()
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-3)
    pos = torch.rand(N_ENVS) * 2 - 1
    for iteration in range(3):
        buffer = RolloutBuffer()
        for _ in range(HORIZON):
            obs = observe(pos)
            dist, value = agent(obs)
            action = dist.sample()
            pos, reward = env_step(pos, action)
            buffer.add(obs, action, dist.log_prob(action), value, reward)
        with torch.no_grad():
            adv, returns = buffer.advantages(agent(observe(pos))[1])
        obs_b = torch.cat(buffer.obs)
        act_b = torch.cat(buffer.actions)
        old_logp_b = torch.cat(buffer.log_probs)
        adv_b = adv.reshape(-1)
        adv_b = (adv_b - adv_b.mean()) / (adv_b.std() + 1e-8)
        ret_b = returns.reshape(-1)
        for epoch in range(PPO_EPOCHS):
            for idx in torch.randperm(len(obs_b)).chunk(MINIBATCHES):
                dist, value = agent(obs_b[idx])
                ratio = (dist.log_prob(act_b[idx]) - old_logp_b[idx]).exp()
                clipped = ratio.clamp(1 - CLIP, 1 + CLIP)
                policy_loss = -torch.min(ratio * adv_b[idx], clipped * adv_b[idx]).mean()
                value_loss = F.mse_loss(value, ret_b[idx])
                loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        mean_reward = torch.stack(buffer.rewards).mean().item()
        print(f"iter {iteration} loss {loss.item():.4f} mean reward {mean_reward:.4f}")


if __name__ == "__main__":
    main()
