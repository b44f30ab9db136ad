"""A2C with curiosity on a sparse-reward corridor: the agent starts at the left end and is
rewarded only at the right end. Each update collects a short rollout, adds the ICM bonus to the
extrinsic reward, and trains the actor-critic and the ICM with one Adam optimizer."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

from curiosity import ICM

N_CELLS, N_ACTIONS, ROLLOUT, GAMMA = 10, 2, 24, 0.95


class Corridor:
    def __init__(self):
        self.pos = 0

    def observe(self):
        return F.one_hot(torch.tensor(self.pos), N_CELLS).float()

    def step(self, action):
        self.pos = max(0, min(N_CELLS - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == N_CELLS - 1
        reward = 1.0 if done else 0.0
        if done:
            self.pos = 0
        return reward, done


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_CELLS, 32), nn.Tanh())
        self.pi = nn.Linear(32, N_ACTIONS)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def collect(env, agent):
    obs, actions, rewards, dones, next_obs = [], [], [], [], []
    for _ in range(ROLLOUT):
        o = env.observe()
        with torch.no_grad():
            logits, _ = agent(o)
        a = Categorical(logits=logits).sample().item()
        r, d = env.step(a)
        obs.append(o); actions.append(a); rewards.append(r); dones.append(d)
        next_obs.append(env.observe())
    return (torch.stack(obs), torch.tensor(actions), torch.tensor(rewards),
            torch.tensor(dones, dtype=torch.float32), torch.stack(next_obs))


def discounted(rewards, dones, bootstrap):
    out, running = torch.zeros_like(rewards), bootstrap
    for t in reversed(range(len(rewards))):
        running = rewards[t] + GAMMA * running * (1 - dones[t])
        out[t] = running
    return out


torch.manual_seed(0)
env, agent = Corridor(), ActorCritic()
icm = ICM(N_CELLS, N_ACTIONS)
optimizer = torch.optim.Adam(list(agent.parameters()) + list(icm.parameters()), lr=3e-3)

for update in range(6):
    obs, actions, rewards, dones, next_obs = collect(env, agent)
    bonus = icm.intrinsic_reward(obs, next_obs, actions)
    with torch.no_grad():
        bootstrap = agent(next_obs[-1])[1]
    returns = discounted(rewards + bonus, dones, bootstrap)

    logits, values = agent(obs)
    dist = Categorical(logits=logits)
    advantage = returns - values
    policy_loss = -(dist.log_prob(actions) * advantage.detach()).mean() - 0.01 * dist.entropy().mean()
    value_loss = advantage.pow(2).mean()
    icm_loss, fwd, inv = icm.loss(actions)
    loss = policy_loss + 0.5 * value_loss + icm_loss

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"update {update} extrinsic {rewards.sum().item():.0f} bonus {bonus.mean().item():.4f} "
          f"fwd {fwd.item():.4f} inv {inv.item():.4f} pos {env.pos}")
