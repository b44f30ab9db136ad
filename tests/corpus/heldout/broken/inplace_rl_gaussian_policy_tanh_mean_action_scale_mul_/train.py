"""REINFORCE with a Gaussian policy for a continuous control task: a thermostat agent picks
a heater power in [0, 3] kW for each room; the reward is minus the squared distance of the
resulting temperature to the set point, minus an energy cost. The policy squashes its mean
with tanh and rescales it to the action range, as in the usual SAC/TD3 policies.
"""
import torch
import torch.nn as nn
from torch.distributions import Normal

OBS_DIM, ROOMS, BATCH, ITERS = 4, 1, 64, 6
ACTION_LOW, ACTION_HIGH = 0.0, 3.0


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
        self.mean_head = nn.Linear(32, ROOMS)
        self.log_std = nn.Parameter(torch.full((ROOMS,), -0.5))
        self.register_buffer("action_scale", torch.tensor((ACTION_HIGH - ACTION_LOW) / 2))
        self.register_buffer("action_bias", torch.tensor((ACTION_HIGH + ACTION_LOW) / 2))

    def forward(self, obs):
        mean = torch.tanh(self.mean_head(self.body(obs)))
        mean.mul_(self.action_scale).add_(self.action_bias)
        return Normal(mean, self.log_std.exp())


def room_step(obs, power):
    """obs = [inside temp, outside temp, set point, insulation]; returns the reward."""
    inside, outside, target, insulation = obs.unbind(dim=1)
    next_temp = inside + 0.3 * (outside - inside) * (1 - insulation) + 1.5 * power.squeeze(1)
    return -(next_temp - target) ** 2 - 0.1 * power.squeeze(1)


def train(iters=ITERS):
    torch.manual_seed(0)
    policy = GaussianPolicy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    baseline = 0.0
    for it in range(iters):
        obs = torch.stack([torch.randn(BATCH) + 18, torch.randn(BATCH) * 3 + 8,
                           torch.full((BATCH,), 21.0), torch.rand(BATCH)], dim=1)
        dist = policy(obs)
        power = dist.sample().clamp(ACTION_LOW, ACTION_HIGH)
        reward = room_step(obs, power)
        advantage = reward - baseline
        loss = -(dist.log_prob(power).sum(dim=1) * advantage).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        baseline = 0.9 * baseline + 0.1 * reward.mean().item()
        print(f"iter {it} mean reward {reward.mean().item():.3f} "
              f"mean power {power.mean().item():.3f}")
    return policy


if __name__ == "__main__":
    train()
