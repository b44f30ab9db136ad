"""PPO on a tiny discrete "thermostat" control task. Each iteration snapshots the behaviour
policy with copy.deepcopy (after the optimizer was built): the snapshot is frozen and only
provides the old log-probabilities for the clipped ratio; the optimizer keeps updating the
live ActorCritic."""
import copy
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class PPOConfig:
    iterations: int = 3
    horizon: int = 32
    epochs: int = 2
    clip: float = 0.2
    gamma: float = 0.9
    lr: float = 3e-3
    value_coef: float = 0.5
    entropy_coef: float = 0.01


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=2, n_actions=3, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.pi(h), self.v(h).squeeze(-1)


class Thermostat:
    """State: (temperature error, outside drift). Actions: cool / idle / heat."""

    def __init__(self, gen):
        self.gen = gen
        self.err = torch.zeros(())
        self.drift = torch.zeros(())

    def reset(self):
        self.err = torch.randn((), generator=self.gen)
        self.drift = 0.2 * torch.randn((), generator=self.gen)
        return torch.stack([self.err, self.drift])

    def step(self, action):
        self.err = (self.err + 0.5 * (action - 1) + self.drift).clamp(-4.0, 4.0)
        return torch.stack([self.err, self.drift]), -self.err.abs()


def collect(policy, env, cfg):
    obs_buf, act_buf, rew_buf = [], [], []
    obs = env.reset()
    with torch.no_grad():
        for _ in range(cfg.horizon):
            logits, _ = policy(obs)
            action = torch.distributions.Categorical(logits=logits).sample()
            next_obs, reward = env.step(action.item())
            obs_buf.append(obs)
            act_buf.append(action)
            rew_buf.append(reward)
            obs = next_obs
    returns, running = [], torch.zeros(())
    for r in reversed(rew_buf):
        running = r + cfg.gamma * running
        returns.append(running)
    return torch.stack(obs_buf), torch.stack(act_buf), torch.stack(returns[::-1])


def main():
    torch.manual_seed(0)
    cfg = PPOConfig()
    env = Thermostat(torch.Generator().manual_seed(0))
    model = ActorCritic()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for it in range(cfg.iterations):
        behaviour = copy.deepcopy(model).requires_grad_(False)
        obs, actions, returns = collect(behaviour, env, cfg)
        with torch.no_grad():
            old_logits, old_values = behaviour(obs)
            old_logp = torch.distributions.Categorical(logits=old_logits).log_prob(actions)
            adv = returns - old_values
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for epoch in range(cfg.epochs):
            logits, values = model(obs)
            dist = torch.distributions.Categorical(logits=logits)
            ratio = (dist.log_prob(actions) - old_logp).exp()
            surrogate = torch.min(ratio * adv, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * adv)
            loss = (-surrogate.mean() + cfg.value_coef * F.mse_loss(values, returns)
                    - cfg.entropy_coef * dist.entropy().mean())
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
        print(f"iter {it} mean return {returns.mean().item():.4f} loss {loss.item():.4f}")

    with torch.no_grad():
        checksum = sum(p.double().sum() for p in model.parameters())
    print(f"param checksum {checksum.item():.6f}")


if __name__ == "__main__":
    main()
