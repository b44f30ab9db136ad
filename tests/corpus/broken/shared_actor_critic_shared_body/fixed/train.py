"""A2C-style update with a shared body: critic and actor heads read the same features."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
OBS, ACTIONS, HID, GAMMA = 6, 3, 32, 0.99


class A2CAgent:
    def __init__(self):
        self.body = nn.Sequential(nn.Linear(OBS, HID), nn.Tanh())
        self.actor = nn.Linear(HID, ACTIONS)
        self.critic = nn.Linear(HID, 1)
        params = [*self.body.parameters(), *self.actor.parameters(), *self.critic.parameters()]
        self.optimizer = torch.optim.RMSprop(params, lr=7e-4)

    def update(self, states, actions, returns):
        features = self.body(states)
        dist = Categorical(logits=self.actor(features))
        values = self.critic(features).squeeze(-1)
        advantages = returns - values
        critic_loss = advantages.pow(2).mean()
        actor_loss = -(dist.log_prob(actions) * advantages.detach()).mean() \
            - 0.01 * dist.entropy().mean()
        self.optimizer.zero_grad()
        (actor_loss + critic_loss).backward()
        self.optimizer.step()
        return actor_loss.item(), critic_loss.item()


def discounted(rewards):
    out, running = [], 0.0
    for r in reversed(rewards.tolist()):
        running = r + GAMMA * running
        out.append(running)
    return torch.tensor(out[::-1])


agent = A2CAgent()
for update in range(4):
    states = torch.randn(16, OBS)
    with torch.no_grad():
        actions = Categorical(logits=agent.actor(agent.body(states))).sample()
    rewards = (actions == states[:, :ACTIONS].argmax(1)).float()
    actor_loss, critic_loss = agent.update(states, actions, discounted(rewards))
print(f"actor {actor_loss:.4f} critic {critic_loss:.4f}")
