"""REINFORCE on a batch of 5x5 gridworlds (reach the goal corner). The agent adapts its
entropy bonus to keep the policy entropy near a target, tracking the entropy with an
exponential moving average kept on the agent."""
import torch
import torch.nn as nn
import torch.nn.functional as F

GRID, HORIZON, N_EPISODES = 5, 10, 16
MOVES = torch.tensor([[-1, 0], [1, 0], [0, -1], [0, 1]])


class Gridworld:
    def __init__(self, n, gen):
        self.n, self.gen = n, gen

    def reset(self):
        self.pos = torch.randint(0, GRID - 1, (self.n, 2), generator=self.gen)
        return self.observe()

    def observe(self):
        return F.one_hot(self.pos[:, 0] * GRID + self.pos[:, 1], GRID * GRID).float()

    def step(self, action):
        self.pos = (self.pos + MOVES[action]).clamp(0, GRID - 1)
        at_goal = (self.pos == GRID - 1).all(dim=1)
        return self.observe(), at_goal.float() - 0.02


class ReinforceAgent:
    def __init__(self, lr=1e-2, gamma=0.97, target_entropy=0.9):
        self.policy = nn.Sequential(nn.Linear(GRID * GRID, 64), nn.Tanh(), nn.Linear(64, 4))
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.gamma = gamma
        self.target_entropy = target_entropy
        self.ent_coef = 0.01
        self.entropy_ema = None

    def act(self, obs):
        dist = torch.distributions.Categorical(logits=self.policy(obs))
        action = dist.sample()
        return action, dist.log_prob(action), dist.entropy()

    def update(self, log_probs, rewards, entropies):
        returns, running = [], torch.zeros(N_EPISODES)
        for r in reversed(rewards):
            running = r + self.gamma * running
            returns.insert(0, running)
        returns = torch.stack(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        entropy = torch.stack(entropies).mean()
        loss = -(torch.stack(log_probs) * returns).mean() - self.ent_coef * entropy
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

        if self.entropy_ema is None:
            self.entropy_ema = entropy
        else:
            self.entropy_ema = 0.9 * self.entropy_ema + 0.1 * entropy
        if self.entropy_ema < self.target_entropy:
            self.ent_coef = min(self.ent_coef * 1.5, 0.2)
        else:
            self.ent_coef = max(self.ent_coef * 0.8, 1e-3)
        return loss.item()


torch.manual_seed(0)
env = Gridworld(N_EPISODES, torch.Generator().manual_seed(4))
agent = ReinforceAgent()
for it in range(10):
    obs = env.reset()
    log_probs, rewards, entropies = [], [], []
    for t in range(HORIZON):
        action, log_prob, entropy = agent.act(obs)
        obs, reward = env.step(action)
        log_probs.append(log_prob)
        rewards.append(reward)
        entropies.append(entropy)
    loss = agent.update(log_probs, rewards, entropies)
    print(f"iter {it} loss {loss:.4f} return {torch.stack(rewards).sum(0).mean():.3f} "
          f"entropy ema {agent.entropy_ema:.3f} coef {agent.ent_coef:.4f}")
