"""Continuous-action policy gradient for a thermostat setpoint task: the state is the room
and outside temperature, the action is a heating power drawn from a Gaussian policy. The
Gaussian log-density is evaluated with a NumPy helper shared with the offline evaluation
scripts."""
import numpy as np
import torch
import torch.nn as nn

BATCH, STEPS, TARGET_TEMP = 32, 5, 21.0


def gaussian_log_density(x, mean, std):
    return -0.5 * ((x - mean) / std) ** 2 - np.log(std) - 0.5 * np.log(2 * np.pi)


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
        self.mean = nn.Linear(32, 1)
        self.log_std = nn.Parameter(torch.zeros(1))

    def forward(self, state):
        return self.mean(self.body(state)).squeeze(-1), self.log_std.exp().expand(state.size(0))


def simulate(room, outside, power):
    return room + 0.1 * (outside - room) + 2.0 * power


def main():
    torch.manual_seed(0)
    policy = GaussianPolicy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for step in range(STEPS):
        room = 15 + 6 * torch.rand(BATCH)
        outside = 5 * torch.rand(BATCH)
        mean, std = policy(torch.stack([(room - 18) / 3, (outside - 2.5) / 2.5], 1))
        with torch.no_grad():
            power = mean + std * torch.randn(BATCH)
        reward = -(simulate(room, outside, power) - TARGET_TEMP).abs()
        log_prob = torch.distributions.Normal(mean, std).log_prob(power)
        loss = -((reward - reward.mean()) * log_prob).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} mean_reward {reward.mean().item():.3f} std {std[0].item():.3f}")
    return policy


if __name__ == "__main__":
    main()
