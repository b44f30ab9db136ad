"""Advantage actor-critic on a 1-D 'reach the goal' task. Rollout bookkeeping is NumPy:
rewards come back as floats, values are read with .detach().numpy(), GAE is computed in
NumPy and the advantages/returns re-enter torch with torch.as_tensor (they are targets and
need no graph). The bootstrap value comes from a frozen target critic updated by Polyak
averaging."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReachEnv:
    def __init__(self, rng):
        self.rng = rng
        self.reset()

    def reset(self):
        self.x = float(self.rng.uniform(-1, 1))
        self.goal = float(self.rng.uniform(-1, 1))
        return self.obs()

    def obs(self):
        return np.array([self.x, self.goal, self.goal - self.x], dtype=np.float32)

    def step(self, action):
        self.x = float(np.clip(self.x + (-0.1, 0.0, 0.1)[action], -1.5, 1.5))
        dist = abs(self.goal - self.x)
        done = dist < 0.05
        return self.obs(), (1.0 if done else -dist), done


class ActorCritic(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(3, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, 3)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def gae(rewards, values, dones, last_value, gamma=0.97, lam=0.95):
    adv = np.zeros_like(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        next_value = last_value if t == len(rewards) - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * nonterminal - values[t]
        running = delta + gamma * lam * nonterminal * running
        adv[t] = running
    return adv, adv + values


def main():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    env = ReachEnv(rng)
    net = ActorCritic()
    target_critic = copy.deepcopy(net).requires_grad_(False)
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
    obs = env.reset()

    for update in range(6):
        log_probs, values, entropies = [], [], []
        rewards, dones = [], []
        for _ in range(24):
            dist, value = net(torch.as_tensor(obs))
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            entropies.append(dist.entropy())
            values.append(value)
            obs, reward, done = env.step(action.item())
            rewards.append(reward)
            dones.append(float(done))
            if done:
                obs = env.reset()
        with torch.no_grad():
            _, last_value = target_critic(torch.as_tensor(obs))

        values_t = torch.stack(values)
        adv_np, ret_np = gae(np.array(rewards, dtype=np.float32),
                             values_t.detach().numpy(),
                             np.array(dones, dtype=np.float32), last_value.item())
        adv = torch.as_tensor((adv_np - adv_np.mean()) / (adv_np.std() + 1e-8))
        returns = torch.as_tensor(ret_np)

        policy_loss = -(torch.stack(log_probs) * adv).mean()
        value_loss = F.mse_loss(values_t, returns)
        entropy = torch.stack(entropies).mean()
        loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        optimizer.step()
        with torch.no_grad():
            for p_t, p in zip(target_critic.parameters(), net.parameters()):
                p_t.lerp_(p, 0.1)
        print(f"update {update} loss {loss.item():.4f} return {float(np.sum(rewards)):.3f}")
    print(f"checksum {sum(p.double().sum().item() for p in net.parameters()):.6f}")


if __name__ == "__main__":
    main()
