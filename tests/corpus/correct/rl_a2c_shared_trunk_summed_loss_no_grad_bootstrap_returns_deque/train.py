"""Advantage actor-critic on a 1-D random-walk chain with a shared trunk. Rollouts of a few
steps are kept in a deque of (log_prob, value, reward); the bootstrap value of the last state
is computed under no_grad, advantages use value.detach(), and actor and critic losses are
summed into one backward per rollout. The deque is cleared after every update."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STATES, ROLLOUT, UPDATES, GAMMA = 7, 4, 6, 0.9


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(N_STATES, 32), nn.Tanh())
        self.policy = nn.Linear(32, 2)
        self.value = nn.Linear(32, 1)

    def forward(self, state):
        z = self.trunk(F.one_hot(torch.tensor(state), N_STATES).float())
        return self.policy(z), self.value(z).squeeze(-1)


torch.manual_seed(0)
agent = ActorCritic()
optimizer = torch.optim.RMSprop(agent.parameters(), lr=5e-3)
rollout = deque()
state = N_STATES // 2
for update in range(UPDATES):
    for _ in range(ROLLOUT):
        logits, value = agent(state)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        state = min(max(state + (1 if action.item() == 1 else -1), 0), N_STATES - 1)
        reward = 1.0 if state == N_STATES - 1 else 0.0
        rollout.append((dist.log_prob(action), dist.entropy(), value, reward))
        if reward:
            state = N_STATES // 2
    with torch.no_grad():
        _, ret = agent(state)
    actor_loss, critic_loss, entropy = 0.0, 0.0, 0.0
    for log_prob, ent, value, reward in reversed(rollout):
        ret = reward + GAMMA * ret
        advantage = ret - value.detach()
        actor_loss = actor_loss - log_prob * advantage
        critic_loss = critic_loss + (ret - value) ** 2
        entropy = entropy + ent
    loss = actor_loss + 0.5 * critic_loss - 0.01 * entropy
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    rollout.clear()
    print(f"update {update} loss {loss.item():.4f}")
print(f"checksum {sum(p.sum().item() for p in agent.parameters()):.4f}")
