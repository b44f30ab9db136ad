"""Recurrent advantage actor-critic on a cue-recall task: a cue is shown on the first
step of each episode and must be recalled at the last step. Environments keep running
across updates, so the agent's GRU state is carried in a RolloutState dataclass."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ENVS, EP_LEN, ROLLOUT, HIDDEN, GAMMA = 8, 4, 5, 16, 0.95


class CueRecallEnv:
    """obs: [cue==0, cue==1, corridor, decision]; reward 1 for the cued action at the end."""

    def __init__(self, n):
        self.n = n
        self.t = torch.arange(n) % EP_LEN  # staggered episode phases
        self.cue = torch.randint(0, 2, (n,))

    def observe(self):
        obs = torch.zeros(self.n, 4)
        first = self.t == 0
        obs[first, self.cue[first]] = 1.0
        obs[(self.t > 0) & (self.t < EP_LEN - 1), 2] = 1.0
        obs[self.t == EP_LEN - 1, 3] = 1.0
        return obs

    def step(self, action):
        decision = self.t == EP_LEN - 1
        reward = (decision & (action == self.cue)).float()
        self.t = self.t + 1
        done = self.t == EP_LEN
        self.t[done] = 0
        self.cue[done] = torch.randint(0, 2, (int(done.sum()),))
        return self.observe(), reward, done.float()


class RecurrentActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRUCell(4, HIDDEN)
        self.actor = nn.Linear(HIDDEN, 2)
        self.critic = nn.Linear(HIDDEN, 1)

    def forward(self, obs, hx):
        hx = self.gru(obs, hx)
        return self.actor(hx), self.critic(hx).squeeze(1), hx


@dataclass
class RolloutState:
    obs: torch.Tensor
    hx: torch.Tensor


def train(updates=6):
    torch.manual_seed(0)
    env = CueRecallEnv(N_ENVS)
    agent = RecurrentActorCritic()
    optimizer = torch.optim.RMSprop(agent.parameters(), lr=7e-3)
    state = RolloutState(obs=env.observe(), hx=torch.zeros(N_ENVS, HIDDEN))
    for update in range(updates):
        obs, hx = state.obs, state.hx
        log_probs, values, entropies, rewards, masks = [], [], [], [], []
        for _ in range(ROLLOUT):
            logits, value, hx = agent(obs, hx)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            obs, reward, done = env.step(action)
            log_probs.append(dist.log_prob(action))
            values.append(value)
            entropies.append(dist.entropy())
            rewards.append(reward)
            masks.append(1.0 - done)
            hx = hx * (1.0 - done).unsqueeze(1)  # new episode, fresh memory
        state.obs = obs
        state.hx = hx
        with torch.no_grad():
            _, ret, _ = agent(obs, hx)
        returns = []
        for r, m in zip(reversed(rewards), reversed(masks)):
            ret = r + GAMMA * ret * m
            returns.insert(0, ret)
        returns, values = torch.stack(returns), torch.stack(values)
        advantage = returns - values
        policy_loss = -(torch.stack(log_probs) * advantage.detach()).mean()
        value_loss = F.mse_loss(values, returns)
        loss = policy_loss + 0.5 * value_loss - 0.01 * torch.stack(entropies).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"update {update}: loss {loss.item():.4f} reward/step {torch.stack(rewards).mean().item():.3f}")
    return agent


if __name__ == "__main__":
    train()
