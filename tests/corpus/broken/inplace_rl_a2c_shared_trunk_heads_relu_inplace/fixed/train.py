"""Synchronous A2C on a batch of corridor environments (walk right to reach the goal).
Actor and critic share a LayerNorm'd trunk; both heads are built by the same helper."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ENVS, LENGTH, ROLLOUT, GAMMA = 16, 7, 6, 0.95


def mlp_head(hidden, out_dim):
    return nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden),
                         nn.ReLU(inplace=True), nn.Linear(hidden, out_dim))


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.LayerNorm(hidden))
        self.actor = mlp_head(hidden, n_actions)
        self.critic = mlp_head(hidden, 1)

    def forward(self, obs):
        feat = self.trunk(obs)
        return self.actor(feat), self.critic(feat).squeeze(-1)


class CorridorEnvs:
    def __init__(self, n, length, gen):
        self.n, self.length, self.gen = n, length, gen
        self.pos = torch.zeros(n, dtype=torch.long)

    def obs(self):
        return F.one_hot(self.pos, self.length).float()

    def step(self, actions):
        self.pos = (self.pos + 2 * actions - 1).clamp(0, self.length - 1)
        done = self.pos == self.length - 1
        reward = done.float() - 0.01
        self.pos[done] = torch.randint(0, 3, (int(done.sum()),), generator=self.gen)
        return reward, done


torch.manual_seed(0)
envs = CorridorEnvs(N_ENVS, LENGTH, torch.Generator().manual_seed(1))
net = ActorCritic(LENGTH, 2)
optimizer = torch.optim.RMSprop(net.parameters(), lr=7e-4, alpha=0.99, eps=1e-5)

for update in range(6):
    log_probs, values, rewards, masks, entropies = [], [], [], [], []
    for t in range(ROLLOUT):
        logits, value = net(envs.obs())
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        reward, done = envs.step(action)
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        values.append(value)
        rewards.append(reward)
        masks.append(1.0 - done.float())
    with torch.no_grad():
        _, ret = net(envs.obs())
    returns = []
    for t in reversed(range(ROLLOUT)):
        ret = rewards[t] + GAMMA * masks[t] * ret
        returns.insert(0, ret)
    returns, values = torch.stack(returns), torch.stack(values)
    advantages = returns - values
    policy_loss = -(torch.stack(log_probs) * advantages.detach()).mean()
    value_loss = advantages.pow(2).mean()
    loss = policy_loss + 0.5 * value_loss - 0.01 * torch.stack(entropies).mean()
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    optimizer.step()
    print(f"update {update} loss {loss.item():.4f} return {returns.mean().item():.3f}")
