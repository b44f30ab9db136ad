"""DDPG on a toy 1-D reach task (move a point to a goal), replay buffer in a deque.
Both losses are computed up front in DDPGAgent.update(), then the critic and the actor are
stepped one after the other."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
OBS, ACT, GAMMA, TAU = 3, 1, 0.95, 0.05


def mlp(inp, out, hidden=32, final=None):
    layers = [nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
              nn.Linear(hidden, out)]
    return nn.Sequential(*layers, final) if final is not None else nn.Sequential(*layers)


class DDPGAgent:
    def __init__(self):
        self.actor = mlp(OBS, ACT, final=nn.Tanh())
        self.critic = mlp(OBS + ACT, 1)
        self.actor_target = mlp(OBS, ACT, final=nn.Tanh())
        self.critic_target = mlp(OBS + ACT, 1)
        self.actor_target.load_state_dict(self.actor.state_dict())
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.buffer = deque(maxlen=1000)

    def act(self, obs, noise=0.1):
        with torch.no_grad():
            action = self.actor(obs)
        return (action + noise * torch.randn_like(action)).clamp(-1, 1)

    def soft_update(self):
        with torch.no_grad():
            for net, target in ((self.actor, self.actor_target), (self.critic, self.critic_target)):
                for p, tp in zip(net.parameters(), target.parameters()):
                    tp.mul_(1 - TAU).add_(TAU * p)

    def update(self, batch_size=32):
        s, a, r, s2 = (torch.stack(x) for x in zip(*random.sample(self.buffer, batch_size)))
        with torch.no_grad():
            q_next = self.critic_target(torch.cat([s2, self.actor_target(s2)], 1))
            q_target = r + GAMMA * q_next
        q = self.critic(torch.cat([s, a], 1))
        critic_loss = F.mse_loss(q, q_target)

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        actor_loss = -self.critic(torch.cat([s, self.actor(s)], 1)).mean()
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()
        self.soft_update()
        return critic_loss.item(), actor_loss.item()


def env_step(obs, action):
    pos, goal = obs[0], obs[1]
    new_pos = (pos + 0.2 * action[0]).clamp(-2, 2)
    reward = -(new_pos - goal).abs().unsqueeze(0)
    return torch.stack([new_pos, goal, goal - new_pos]), reward


agent = DDPGAgent()
obs = torch.tensor([0.0, 1.0, 1.0])
for t in range(64):
    action = agent.act(obs)
    next_obs, reward = env_step(obs, action)
    agent.buffer.append((obs, action, reward, next_obs))
    obs = next_obs
for it in range(4):
    c_loss, a_loss = agent.update()
    print(f"update {it} critic {c_loss:.4f} actor {a_loss:.4f}")
