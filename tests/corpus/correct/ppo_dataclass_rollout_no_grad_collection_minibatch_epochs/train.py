"""PPO with GAE on a vectorised 'reach the beacon' task in 2-D. The rollout buffer is a
dataclass filled under torch.no_grad(); the update runs several epochs of shuffled
minibatches against the stored (graph-free) old log-probabilities and values."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ENVS, HORIZON, EPOCHS, MINIBATCHES, CLIP = 6, 10, 4, 3, 0.2
MOVES = torch.tensor([[0.0, 0.25], [0.0, -0.25], [0.25, 0.0], [-0.25, 0.0]])


@dataclass
class Rollout:
    obs: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    log_probs: list = field(default_factory=list)
    values: list = field(default_factory=list)
    rewards: list = field(default_factory=list)

    def gae(self, last_value, gamma=0.98, lam=0.92):
        values = torch.stack(self.values + [last_value])
        adv, running = [], torch.zeros(N_ENVS)
        for t in reversed(range(len(self.rewards))):
            delta = self.rewards[t] + gamma * values[t + 1] - values[t]
            running = delta + gamma * lam * running
            adv.append(running)
        adv = torch.stack(adv[::-1])
        return adv, adv + values[:-1]


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 48), nn.Tanh(), nn.Linear(48, 48), nn.Tanh())
        self.pi = nn.Linear(48, len(MOVES))
        self.v = nn.Linear(48, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def main():
    torch.manual_seed(0)
    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=2.5e-3)
    pos, beacon = torch.zeros(N_ENVS, 2), torch.rand(N_ENVS, 2) * 2 - 1
    for it in range(3):
        roll = Rollout()
        with torch.no_grad():
            for _ in range(HORIZON):
                obs = torch.cat([pos, beacon - pos], 1)
                dist, value = policy(obs)
                action = dist.sample()
                pos = (pos + MOVES[action]).clamp(-1, 1)
                reward = -(beacon - pos).norm(dim=1)
                roll.obs.append(obs)
                roll.actions.append(action)
                roll.log_probs.append(dist.log_prob(action))
                roll.values.append(value)
                roll.rewards.append(reward)
            adv, returns = roll.gae(policy(torch.cat([pos, beacon - pos], 1))[1])
        obs_b, act_b = torch.cat(roll.obs), torch.cat(roll.actions)
        old_logp, adv_b, ret_b = torch.cat(roll.log_probs), adv.flatten(), returns.flatten()
        adv_b = (adv_b - adv_b.mean()) / (adv_b.std() + 1e-8)
        for _ in range(EPOCHS):
            for idx in torch.randperm(len(obs_b)).chunk(MINIBATCHES):
                dist, value = policy(obs_b[idx])
                ratio = torch.exp(dist.log_prob(act_b[idx]) - old_logp[idx])
                surr = torch.min(ratio * adv_b[idx], ratio.clamp(1 - CLIP, 1 + CLIP) * adv_b[idx])
                loss = (-surr.mean() + 0.5 * F.mse_loss(value, ret_b[idx])
                        - 0.01 * dist.entropy().mean())
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimizer.step()
        print(f"iter {it} loss {loss.item():.4f} mean reward "
              f"{torch.stack(roll.rewards).mean().item():.4f}")
    checksum = sum(p.detach().double().sum().item() for p in policy.parameters())
    print(f"parameter checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
