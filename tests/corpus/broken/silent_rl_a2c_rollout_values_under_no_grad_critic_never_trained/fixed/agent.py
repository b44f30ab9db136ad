"""Advantage actor-critic with separate actor and critic networks and one optimizer."""
import torch
import torch.nn as nn


class A2CAgent:
    def __init__(self, obs_dim, n_actions, lr=1e-2, gamma=0.95):
        self.actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.optimizer = torch.optim.Adam(
            list(self.actor.parameters()) + list(self.critic.parameters()), lr=lr)
        self.gamma = gamma

    def rollout(self, env, obs, horizon):
        log_probs, entropies, values, rewards, dones = [], [], [], [], []
        for _ in range(horizon):
            dist = torch.distributions.Categorical(logits=self.actor(obs))
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            entropies.append(dist.entropy())
            values.append(self.critic(obs).squeeze(-1))
            obs, reward, done = env.step(action)
            rewards.append(reward)
            dones.append(done.float())
        with torch.no_grad():
            last_value = self.critic(obs).squeeze(-1)
        batch = {k: torch.stack(v) for k, v in [("log_probs", log_probs), ("entropies", entropies),
                 ("values", values), ("rewards", rewards), ("dones", dones)]}
        return obs, batch, last_value

    def update(self, batch, last_value):
        returns, running = [], last_value
        for r, d in zip(reversed(batch["rewards"]), reversed(batch["dones"])):
            running = r + self.gamma * running * (1 - d)
            returns.append(running)
        returns = torch.stack(returns[::-1])
        advantages = returns - batch["values"].detach()  # a baseline: no actor gradient into it
        actor_loss = -(advantages * batch["log_probs"]).mean()
        critic_loss = (returns - batch["values"]).pow(2).mean()
        loss = actor_loss + 0.5 * critic_loss - 0.01 * batch["entropies"].mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return actor_loss.item(), critic_loss.item()
