"""PPO on a contextual-bandit toy task (pick the arm whose feature is largest). Transitions
are kept in a bounded deque; every rollout is reused for several PPO epochs."""
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

N_ARMS, N_ENVS, ROLLOUT_LEN, PPO_EPOCHS, CLIP = 4, 8, 4, 2, 0.2

Transition = namedtuple("Transition", "obs action log_prob reward")


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_ARMS, 32), nn.Tanh())
        self.pi = nn.Linear(32, N_ARMS)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def env_step(obs, action):
    return (action == obs.argmax(dim=-1)).float()


def collect(policy, rollout):
    for _ in range(ROLLOUT_LEN):
        obs = torch.randn(N_ENVS, N_ARMS)
        logits, _ = policy(obs)
        dist = Categorical(logits=logits)
        action = dist.sample()
        log_prob = dist.log_prob(action)
        rollout.append(Transition(obs, action, log_prob.detach(), env_step(obs, action)))


def ppo_update(policy, optimizer, rollout):
    obs = torch.cat([tr.obs for tr in rollout])
    actions = torch.cat([tr.action for tr in rollout])
    old_log_probs = torch.cat([tr.log_prob for tr in rollout])
    returns = torch.cat([tr.reward for tr in rollout])
    for epoch in range(PPO_EPOCHS):
        logits, values = policy(obs)
        dist = Categorical(logits=logits)
        ratio = torch.exp(dist.log_prob(actions) - old_log_probs)
        adv = returns - values.detach()
        policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()
        loss = policy_loss + 0.5 * F.mse_loss(values, returns) - 0.01 * dist.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"  epoch {epoch} loss {loss.item():.4f}")


def main():
    torch.manual_seed(0)
    policy = ActorCritic()
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    rollout = deque(maxlen=ROLLOUT_LEN)
    for it in range(2):
        collect(policy, rollout)
        print(f"iteration {it} mean reward {torch.cat([tr.reward for tr in rollout]).mean().item():.3f}")
        ppo_update(policy, optimizer, rollout)


if __name__ == "__main__":
    main()
