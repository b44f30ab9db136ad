"""PPO on a tiny 'beacon' task: the agent sees a noisy 4-d observation and must steer
left/right/stay toward a beacon whose side is encoded in the observation. Separate actor
and critic MLPs share one Adam optimizer; rollouts go into a dataclass buffer."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OBS, ACTIONS, HORIZON, GAMMA, LAM, CLIP = 4, 3, 16, 0.95, 0.9, 0.2


@dataclass
class RolloutBuffer:
    obs: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    logprobs: list = field(default_factory=list)
    rewards: list = field(default_factory=list)
    values: list = field(default_factory=list)

    def stacked(self):
        return (torch.stack(self.obs), torch.stack(self.actions), torch.stack(self.logprobs),
                torch.tensor(self.rewards), torch.stack(self.values))


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, ACTIONS))
        self.critic = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, 1))


def env_step(obs, action):
    target = 1 if obs[0] > 0.3 else (0 if obs[0] < -0.3 else 2)
    reward = 1.0 if action.item() == target else -0.2
    return torch.randn(OBS), reward


def collect(agent, obs):
    buf = RolloutBuffer()
    for _ in range(HORIZON):
        with torch.no_grad():
            dist = torch.distributions.Categorical(logits=agent.actor(obs))
            action = dist.sample()
            value = agent.critic(obs).squeeze(-1)
        next_obs, reward = env_step(obs, action)
        buf.obs.append(obs); buf.actions.append(action); buf.logprobs.append(dist.log_prob(action))
        buf.rewards.append(reward); buf.values.append(value)
        obs = next_obs
    return buf, obs


def gae(rewards, values):
    adv, running = torch.zeros_like(rewards), 0.0
    for t in reversed(range(len(rewards))):
        next_v = values[t + 1] if t + 1 < len(rewards) else 0.0
        delta = rewards[t] + GAMMA * next_v - values[t]
        running = delta + GAMMA * LAM * running
        adv[t] = running
    return adv, adv + values


agent = Agent()
optimizer = torch.optim.Adam(agent.parameters(), lr=3e-3)
obs = torch.randn(OBS)
for update in range(4):
    buf, obs = collect(agent, obs)
    b_obs, b_act, b_logp, b_rew, b_val = buf.stacked()
    advantages, returns = gae(b_rew, b_val)
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    for epoch in range(2):
        dist = torch.distributions.Categorical(logits=agent.actor(b_obs))
        ratio = (dist.log_prob(b_act) - b_logp).exp()
        policy_loss = -torch.min(ratio * advantages,
                                 ratio.clamp(1 - CLIP, 1 + CLIP) * advantages).mean()
        value_loss = F.mse_loss(b_val, returns)
        loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"update {update} reward {b_rew.mean():.3f} policy {policy_loss.item():.4f} "
          f"value {value_loss.item():.4f}")
