"""DDPG on a toy 1-D reaching task: move a point toward a goal with a bounded push.
Transitions go into a replay buffer; the agent computes both losses from one sampled
batch and then updates the critic and the actor."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
OBS, ACT, HID, GAMMA, TAU = 3, 1, 32, 0.95, 0.05


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(OBS, HID)
        self.mu = nn.Linear(HID, ACT)

    def forward(self, obs):
        return torch.tanh(self.mu(F.relu(self.fc(obs))))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(OBS + ACT, HID)
        self.q = nn.Linear(HID, 1)

    def forward(self, obs, act):
        return self.q(F.relu(self.fc(torch.cat([obs, act], dim=1)))).squeeze(1)


class ReachEnv:
    def reset(self):
        self.pos, self.goal = random.uniform(-1, 1), random.uniform(-1, 1)
        return self.obs()

    def obs(self):
        return torch.tensor([self.pos, self.goal, self.goal - self.pos])

    def step(self, action):
        self.pos = max(-2.0, min(2.0, self.pos + 0.3 * action))
        return self.obs(), -abs(self.goal - self.pos)


class DDPGAgent:
    def __init__(self):
        self.actor, self.critic = Actor(), Critic()
        self.actor_target, self.critic_target = Actor(), Critic()
        self.actor_target.load_state_dict(self.actor.state_dict())
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.buffer = deque(maxlen=1000)

    def update(self, batch_size=32):
        obs, act, rew, nxt = map(torch.stack, zip(*random.sample(self.buffer, batch_size)))
        actor_loss = -self.critic(obs, self.actor(obs)).mean()
        with torch.no_grad():
            target_q = rew + GAMMA * self.critic_target(nxt, self.actor_target(nxt))
        critic_loss = F.mse_loss(self.critic(obs, act), target_q)

        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()
        self.soft_update()
        return actor_loss.item(), critic_loss.item()

    @torch.no_grad()
    def soft_update(self):
        for net, target in ((self.actor, self.actor_target), (self.critic, self.critic_target)):
            for p, tp in zip(net.parameters(), target.parameters()):
                tp.lerp_(p, TAU)


env, agent = ReachEnv(), DDPGAgent()
obs = env.reset()
for t in range(80):
    with torch.no_grad():
        action = (agent.actor(obs) + 0.2 * torch.randn(ACT)).clamp(-1, 1)
    nxt, reward = env.step(action.item())
    agent.buffer.append((obs, action, torch.tensor(reward), nxt))
    obs = env.reset() if t % 20 == 19 else nxt
    if len(agent.buffer) >= 64 and t % 4 == 0:
        a_loss, c_loss = agent.update()
        print(f"t {t} actor {a_loss:.4f} critic {c_loss:.4f}")
