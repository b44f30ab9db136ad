"""REINFORCE agent for a one-dimensional "walk to the charger" task. The agent class keeps
the log-probabilities of the episode and updates at the end of each episode with
normalised discounted returns (as in the classic PyTorch REINFORCE example).
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical

N_CELLS, MAX_STEPS, EPISODES, GAMMA = 7, 12, 4, 0.97


class LineWorld:
    def reset(self):
        self.pos, self.t = N_CELLS // 2, 0
        return self.obs()

    def obs(self):
        o = torch.zeros(N_CELLS)
        o[self.pos] = 1.0
        return o

    def step(self, action):                     # 0 = left, 1 = stay, 2 = right
        self.pos = min(max(self.pos + action - 1, 0), N_CELLS - 1)
        self.t += 1
        at_charger = self.pos == N_CELLS - 1
        return self.obs(), (1.0 if at_charger else -0.05), at_charger or self.t >= MAX_STEPS


class Agent:
    def __init__(self):
        self.policy = nn.Sequential(nn.Linear(N_CELLS, 32), nn.ReLU(), nn.Linear(32, 3),
                                    nn.Softmax(dim=-1))
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
        self.log_probs, self.rewards = [], []

    @torch.no_grad()
    def select_action(self, obs):
        probs = self.policy(obs)
        dist = Categorical(probs)
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        return int(action)

    def finish_episode(self):
        returns, g = [], 0.0
        for r in reversed(self.rewards):
            g = r + GAMMA * g
            returns.insert(0, g)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        loss = -(torch.stack(self.log_probs) * returns).sum()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.log_probs.clear()
        self.rewards.clear()
        return loss.item()


def main():
    torch.manual_seed(0)
    env, agent = LineWorld(), Agent()
    for episode in range(EPISODES):
        obs, done, total = env.reset(), False, 0.0
        while not done:
            obs, reward, done = env.step(agent.select_action(obs))
            agent.rewards.append(reward)
            total += reward
        loss = agent.finish_episode()
        print(f"episode {episode} return {total:+.2f} steps {env.t} loss {loss:+.4f}")


if __name__ == "__main__":
    main()
