"""Recurrent A2C on a vectorised cue-recall task: each env shows a cue at the start of an
episode and pays out when the agent's action matches it. Episodes run across rollouts, so the
agent keeps its GRU state between updates. Advantages are divided by a running scale of the
TD error so the policy step size stays steady."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

N_CUES, HIDDEN, N_ENVS, ROLLOUT = 4, 32, 8, 6


class CueRecallEnv:
    def __init__(self, n_envs, episode_len=9, seed=0):
        self.gen = torch.Generator().manual_seed(seed)
        self.n, self.episode_len = n_envs, episode_len
        self.t = 0
        self.cue = torch.randint(0, N_CUES, (n_envs,), generator=self.gen)

    def observe(self):
        obs = 0.1 * torch.randn(self.n, N_CUES + 1, generator=self.gen)
        if self.t == 0:
            obs[:, :N_CUES] += F.one_hot(self.cue, N_CUES).float()
        obs[:, -1] = self.t / self.episode_len
        return obs

    def step(self, action):
        reward = (action == self.cue).float()
        self.t += 1
        if self.t == self.episode_len:
            self.t = 0
            self.cue = torch.randint(0, N_CUES, (self.n,), generator=self.gen)
        return reward


class RecurrentPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(N_CUES + 1, HIDDEN)
        self.gru = nn.GRUCell(HIDDEN, HIDDEN)
        self.pi = nn.Linear(HIDDEN, N_CUES)
        self.v = nn.Linear(HIDDEN, 1)

    def forward(self, obs, hx):
        hx = self.gru(torch.tanh(self.encoder(obs)), hx)
        return self.pi(hx), self.v(hx).squeeze(-1), hx


class RecurrentA2C:
    def __init__(self, gamma=0.9):
        self.net = RecurrentPolicy()
        self.optimizer = torch.optim.RMSprop(self.net.parameters(), lr=7e-4, alpha=0.99)
        self.gamma = gamma
        self.hx = torch.zeros(N_ENVS, HIDDEN)
        self.adv_scale = torch.ones(())

    def rollout(self, env):
        log_probs, values, entropies, rewards = [], [], [], []
        self.hx = self.hx.detach()
        for _ in range(ROLLOUT):
            logits, value, self.hx = self.net(env.observe(), self.hx)
            dist = Categorical(logits=logits)
            action = dist.sample()
            rewards.append(env.step(action))
            log_probs.append(dist.log_prob(action))
            values.append(value)
            entropies.append(dist.entropy())
        return (torch.stack(log_probs), torch.stack(values), torch.stack(entropies),
                torch.stack(rewards))

    def update(self, env):
        log_probs, values, entropies, rewards = self.rollout(env)
        with torch.no_grad():
            _, bootstrap, _ = self.net(env.observe(), self.hx)
        returns, running = torch.zeros_like(rewards), bootstrap
        for t in reversed(range(ROLLOUT)):
            running = rewards[t] + self.gamma * running
            returns[t] = running
        td = returns - values
        self.adv_scale = 0.9 * self.adv_scale + 0.1 * td.detach().pow(2).mean().sqrt()
        adv = td.detach() / (self.adv_scale + 1e-6)
        loss = (-(log_probs * adv).mean() + 0.5 * td.pow(2).mean()
                - 0.01 * entropies.mean())
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
        self.optimizer.step()
        return loss.item(), rewards.mean().item()


def main(updates=5):
    torch.manual_seed(0)
    env = CueRecallEnv(N_ENVS)
    agent = RecurrentA2C()
    for k in range(updates):
        loss, reward = agent.update(env)
        print(f"update {k} loss {loss:.4f} mean reward {reward:.3f}")


if __name__ == "__main__":
    main()
