"""REINFORCE on a 1-D corridor: the agent starts in the middle and is rewarded for reaching
the right end. The Agent keeps the log-probabilities and rewards of the current episode and
turns them into one policy-gradient loss at the end of the episode."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
LENGTH, MAX_STEPS, GAMMA = 7, 8, 0.95


class Corridor:
    def reset(self):
        self.pos = LENGTH // 2
        return self.obs()

    def obs(self):
        one_hot = torch.zeros(LENGTH)
        one_hot[self.pos] = 1.0
        return one_hot

    def step(self, action):
        self.pos = max(0, min(LENGTH - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos in (0, LENGTH - 1)
        reward = 1.0 if self.pos == LENGTH - 1 else (-1.0 if self.pos == 0 else -0.05)
        return self.obs(), reward, done


class Agent:
    def __init__(self):
        self.policy = nn.Sequential(nn.Linear(LENGTH, 16), nn.Tanh(), nn.Linear(16, 2))
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
        self.log_probs, self.rewards = [], []

    def act(self, obs):
        dist = Categorical(logits=self.policy(obs))
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        return action.item()

    def finish_episode(self):
        returns, running = [], 0.0
        for r in reversed(self.rewards):
            running = r + GAMMA * running
            returns.insert(0, running)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-6)
        log_probs = torch.tensor(self.log_probs)
        loss = -(log_probs * returns).sum()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.log_probs, self.rewards = [], []
        return loss.item()


env, agent = Corridor(), Agent()
for episode in range(6):
    obs, total = env.reset(), 0.0
    for t in range(MAX_STEPS):
        obs, reward, done = env.step(agent.act(obs))
        agent.rewards.append(reward)
        total += reward
        if done:
            break
    loss = agent.finish_episode()
    print(f"episode {episode} return {total:.2f} loss {loss:.4f}")
