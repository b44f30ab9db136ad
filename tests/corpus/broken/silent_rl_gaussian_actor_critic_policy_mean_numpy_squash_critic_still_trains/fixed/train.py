"""One-step actor-critic with a Gaussian policy on a 2-D reaching task: the agent moves a
point towards a target; actions are bounded steps (tanh-squashed policy mean)."""
import numpy as np
import torch
import torch.nn as nn

MAX_STEP, SIGMA, GAMMA = 0.5, 0.2, 0.95


class ReachEnv:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos = self.rng.uniform(-2, 2, size=2)
        self.target = self.rng.uniform(-2, 2, size=2)
        return self._obs()

    def _obs(self):
        return np.concatenate([self.pos, self.target - self.pos]).astype(np.float32)

    def step(self, action):
        self.pos = self.pos + np.clip(action, -MAX_STEP, MAX_STEP)
        dist = np.linalg.norm(self.target - self.pos)
        return self._obs(), -float(dist), bool(dist < 0.2)


class Agent:
    def __init__(self):
        self.actor = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
        self.critic = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=3e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-2)
        self.log_prob = None

    def choose_action(self, obs):
        theta = self.actor(torch.from_numpy(obs))
        mu = torch.tanh(theta) * MAX_STEP
        policy = torch.distributions.Normal(mu, SIGMA)
        action = policy.sample()
        self.log_prob = policy.log_prob(action).sum()
        return action.numpy()

    def learn(self, obs, reward, next_obs, done):
        value = self.critic(torch.from_numpy(obs)).squeeze()
        with torch.no_grad():
            next_value = self.critic(torch.from_numpy(next_obs)).squeeze()
        td_target = reward + GAMMA * next_value * (1.0 - float(done))
        delta = td_target - value
        actor_loss = -self.log_prob * delta.detach()
        critic_loss = delta.pow(2)
        self.actor_opt.zero_grad()
        self.critic_opt.zero_grad()
        (actor_loss + critic_loss).backward()
        self.actor_opt.step()
        self.critic_opt.step()
        return critic_loss.item()


def main():
    torch.manual_seed(0)
    env, agent = ReachEnv(seed=0), Agent()
    for episode in range(2):
        obs, total = env.reset(), 0.0
        for t in range(4):
            action = agent.choose_action(obs)
            next_obs, reward, done = env.step(action)
            c_loss = agent.learn(obs, reward, next_obs, done)
            total += reward
            obs = next_obs
            if done:
                break
        print(f"episode {episode} return {total:.3f} last critic loss {c_loss:.4f}")
    with torch.no_grad():
        print(f"actor checksum {sum(p.sum() for p in agent.actor.parameters()).item():.4f}")


if __name__ == "__main__":
    main()
