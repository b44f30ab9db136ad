"""A2C with PopArt-style value normalisation on a small vectorised MDP whose rewards are in
the hundreds. The critic predicts normalised values; PopArt tracks the first and second
moments of the return targets and, after every update, rescales the value head so that
its unnormalised outputs are preserved."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

N_ENVS, OBS, N_ACTIONS, N_STEPS, GAMMA, EPISODE = 8, 4, 2, 5, 0.9, 6


class PopArt:
    def __init__(self, head, beta=0.3):
        self.head = head
        self.beta = beta
        self.mu = torch.zeros(())
        self.nu = torch.ones(())

    @property
    def sigma(self):
        return (self.nu - self.mu ** 2).clamp(min=1e-4).sqrt()

    def normalize(self, x):
        return (x - self.mu) / self.sigma

    def denormalize(self, x):
        return x * self.sigma + self.mu

    def update(self, returns):
        old_mu, old_sigma = self.mu, self.sigma
        self.mu = (1 - self.beta) * self.mu + self.beta * returns.mean()
        self.nu = (1 - self.beta) * self.nu + self.beta * (returns ** 2).mean()
        with torch.no_grad():  # preserve the outputs: w' = w * s_old / s, b' = (s_old b + mu_old - mu) / s
            self.head.weight.mul_(old_sigma / self.sigma)
            self.head.bias.mul_(old_sigma).add_(old_mu - self.mu).div_(self.sigma)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh())
        self.pi = nn.Linear(32, N_ACTIONS)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.pi(h), self.v(h).squeeze(-1)


class PayoutEnv:
    """Action 1 pays 200 when obs[0] > 0, action 0 pays 50 otherwise; episodes of 6 steps."""

    def __init__(self):
        self.t = 0
        self.obs = torch.randn(N_ENVS, OBS)

    def step(self, action):
        good = (self.obs[:, 0] > 0).long()
        reward = torch.where(action == good, torch.where(good == 1, 200.0, 50.0), 0.0)
        self.t += 1
        done = torch.full((N_ENVS,), float(self.t % EPISODE == 0))
        self.obs = torch.randn(N_ENVS, OBS)
        return self.obs, reward, done


def compute_returns(rewards, dones, last_value):
    ret, out = last_value, []
    for r, d in zip(reversed(rewards), reversed(dones)):
        ret = r + GAMMA * ret * (1 - d)
        out.append(ret)
    return torch.stack(out[::-1])


torch.manual_seed(0)
env = PayoutEnv()
agent = ActorCritic()
popart = PopArt(agent.v)
optimizer = torch.optim.Adam(agent.parameters(), lr=3e-3)
for update in range(6):
    obs = env.obs
    log_probs, values, rewards, dones = [], [], [], []
    for _ in range(N_STEPS):
        logits, v_norm = agent(obs)
        dist = Categorical(logits=logits)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        values.append(v_norm)
        obs, reward, done = env.step(action)
        rewards.append(reward)
        dones.append(done)
    _, last_v_norm = agent(obs)
    returns = compute_returns(rewards, dones, popart.denormalize(last_v_norm))
    values = torch.stack(values)
    advantages = (returns - popart.denormalize(values)).detach()
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    policy_loss = -(torch.stack(log_probs) * advantages).mean()
    value_loss = F.mse_loss(values, popart.normalize(returns))
    loss = policy_loss + 0.5 * value_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    popart.update(returns)
    print(f"update {update} policy {policy_loss.item():.4f} value {value_loss.item():.4f} "
          f"mean return {returns.mean().item():.1f}")
