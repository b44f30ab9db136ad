import torch
import torch.nn as nn
import torch.nn.functional as F


class RecurrentPolicy(nn.Module):
    def __init__(self, obs_dim=4, hidden=16, n_actions=3):
        super().__init__()
        self.cell = nn.GRUCell(obs_dim, hidden)
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs, h):
        h = self.cell(obs, h)
        return self.pi(h), self.v(h).squeeze(-1), h


class CueEnv:
    """Reward 1 when the action names the largest of the first three cues."""

    def __init__(self, n_envs, gen):
        self.n, self.gen = n_envs, gen

    def reset(self):
        self.obs = torch.randn(self.n, 4, generator=self.gen)
        return self.obs

    def step(self, action):
        reward = (action == self.obs[:, :3].argmax(-1)).float()
        self.obs = torch.randn(self.n, 4, generator=self.gen)
        return self.obs, reward


class A2CTrainer:
    def __init__(self, n_envs=4, rollout=5, gamma=0.9):
        torch.manual_seed(0)
        self.env = CueEnv(n_envs, torch.Generator().manual_seed(7))
        self.net = RecurrentPolicy()
        self.opt = torch.optim.RMSprop(self.net.parameters(), lr=7e-3)
        self.rollout, self.gamma = rollout, gamma
        self.obs = self.env.reset()
        self.h = torch.zeros(n_envs, 16)

    def collect(self):
        logps, values, rewards, entropies = [], [], [], []
        for _ in range(self.rollout):
            logits, value, self.h = self.net(self.obs, self.h)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            self.obs, reward = self.env.step(action)
            logps.append(dist.log_prob(action))
            values.append(value)
            rewards.append(reward)
            entropies.append(dist.entropy())
        return logps, values, rewards, entropies

    def update(self):
        logps, values, rewards, entropies = self.collect()
        with torch.no_grad():
            _, ret, _ = self.net(self.obs, self.h)
        returns = []
        for r in reversed(rewards):
            ret = r + self.gamma * ret
            returns.insert(0, ret)
        returns, values = torch.stack(returns), torch.stack(values)
        advantage = returns - values.detach()
        policy_loss = -(torch.stack(logps) * advantage).mean()
        value_loss = F.mse_loss(values, returns)
        loss = policy_loss + 0.5 * value_loss - 0.01 * torch.stack(entropies).mean()
        self.opt.zero_grad()
        # the hidden state spans rollouts, so keep the graph around
        loss.backward(retain_graph=True)
        self.opt.step()
        return loss.item(), torch.stack(rewards).mean().item()

    def run(self, updates=4):
        for u in range(updates):
            loss, avg_r = self.update()
            print(f"update {u} loss {loss:.4f} reward {avg_r:.2f}")


if __name__ == "__main__":
    A2CTrainer().run()
