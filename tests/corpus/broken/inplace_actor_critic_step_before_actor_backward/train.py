"""Advantage actor-critic on a toy contextual bandit, separate actor and critic networks.
The actor loss uses the advantage straight from the critic's values, so critic_loss.backward()
got retain_graph=True; the critic is stepped before the actor loss is backwarded."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
OBS, ACTIONS, HID, GAMMA = 6, 3, 32, 0.9


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, HID), nn.ReLU())
        self.head = nn.Linear(HID, 1)

    def forward(self, states):
        return self.head(self.body(states)).squeeze(-1)


def rollout(actor, n=16):
    states = torch.randn(n, OBS)
    with torch.no_grad():
        actions = Categorical(logits=actor(states)).sample()
    rewards = (actions == states[:, :ACTIONS].argmax(1)).float()
    returns = torch.zeros(n)
    running = 0.0
    for t in reversed(range(n)):
        running = rewards[t] + GAMMA * running
        returns[t] = running
    return states, actions, returns


def train(updates=4):
    actor = nn.Sequential(nn.Linear(OBS, HID), nn.Tanh(), nn.Linear(HID, ACTIONS))
    critic = Critic()
    actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    for update in range(updates):
        states, actions, returns = rollout(actor)
        log_probs = Categorical(logits=actor(states)).log_prob(actions)
        values = critic(states)
        advantage = returns - values
        critic_loss = advantage.pow(2).mean()
        actor_loss = -(log_probs * advantage).mean()

        critic_opt.zero_grad()
        critic_loss.backward(retain_graph=True)
        critic_opt.step()

        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
    return actor_loss.item(), critic_loss.item()


actor_loss, critic_loss = train()
print(f"actor {actor_loss:.4f} critic {critic_loss:.4f}")
