"""Advantage actor-critic on a tiny corridor world. Actor and critic share a trunk; the
actor (trunk + policy head) and the critic (value head) have their own optimizers and
learning rates."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

N_CELLS, GAMMA, MAX_STEPS = 7, 0.95, 12


class Corridor:
    """Start in the middle; action 1 moves right, 0 moves left; the right end pays 1."""

    def reset(self):
        self.pos, self.t = N_CELLS // 2, 0
        return self.obs()

    def obs(self):
        return F.one_hot(torch.tensor(self.pos), N_CELLS).float()

    def step(self, action):
        self.pos = max(0, min(N_CELLS - 1, self.pos + (1 if action == 1 else -1)))
        self.t += 1
        done = self.pos == N_CELLS - 1 or self.t >= MAX_STEPS
        reward = 1.0 if self.pos == N_CELLS - 1 else -0.02
        return self.obs(), reward, done


@dataclass
class Rollout:
    obs: torch.Tensor
    actions: torch.Tensor
    returns: torch.Tensor


class ActorCritic:
    def __init__(self, hidden=32):
        self.trunk = nn.Sequential(nn.Linear(N_CELLS, hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.Tanh())
        self.policy_head = nn.Linear(hidden, 2)
        self.value_head = nn.Linear(hidden, 1)
        self.actor_opt = torch.optim.Adam(
            [*self.trunk.parameters(), *self.policy_head.parameters()], lr=3e-3)
        self.critic_opt = torch.optim.Adam(self.value_head.parameters(), lr=1e-2)
        self.entropy_coef = 0.01
        self.value_coef = 0.5

    @torch.no_grad()
    def act(self, obs):
        return Categorical(logits=self.policy_head(self.trunk(obs))).sample().item()

    def collect(self, env, episodes=3):
        obs_list, actions, returns = [], [], []
        for _ in range(episodes):
            obs, done, rewards = env.reset(), False, []
            while not done:
                action = self.act(obs)
                obs_list.append(obs)
                actions.append(action)
                obs, reward, done = env.step(action)
                rewards.append(reward)
            running, ep_returns = 0.0, []
            for r in reversed(rewards):
                running = r + GAMMA * running
                ep_returns.append(running)
            returns.extend(reversed(ep_returns))
        return Rollout(torch.stack(obs_list), torch.tensor(actions), torch.tensor(returns))

    def update(self, batch):
        features = self.trunk(batch.obs)
        dist = Categorical(logits=self.policy_head(features))
        values = self.value_head(features).squeeze(-1)
        advantages = batch.returns - values.detach()
        actor_loss = (-(dist.log_prob(batch.actions) * advantages).mean()
                      - self.entropy_coef * dist.entropy().mean())
        critic_loss = F.smooth_l1_loss(values, batch.returns)

        self.actor_opt.zero_grad()
        self.critic_opt.zero_grad()
        (actor_loss + self.value_coef * critic_loss).backward()
        self.actor_opt.step()
        self.critic_opt.step()
        return actor_loss.item(), critic_loss.item()


def main():
    torch.manual_seed(5)
    env, agent = Corridor(), ActorCritic()
    for it in range(6):
        batch = agent.collect(env)
        actor_loss, critic_loss = agent.update(batch)
        print(f"iter {it} steps {len(batch.actions)} actor {actor_loss:.4f} critic {critic_loss:.4f}")


if __name__ == "__main__":
    main()
