"""DQN agent with a soft-updated target network."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, n_states, n_actions, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(n_states, hidden)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, states):
        return self.head(self.embed(states))


class DQNAgent:
    def __init__(self, n_states, n_actions, gamma=0.9, lr=1e-2, tau=0.1):
        self.q_net = QNet(n_states, n_actions)
        self.target_net = copy.deepcopy(self.q_net).requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=lr)
        self.gamma, self.tau, self.n_actions = gamma, tau, n_actions

    def act(self, state, epsilon, rng):
        if rng.random() < epsilon:
            return rng.randrange(self.n_actions)
        with torch.no_grad():
            return int(self.q_net(torch.tensor([state])).argmax())

    def learn(self, batch):
        """One TD update on a replay batch; returns the TD loss."""
        states, actions, rewards, next_states, dones = batch
        q = self.q_net(states).gather(1, actions[:, None]).squeeze(1)
        with torch.no_grad():
            target = rewards + self.gamma * (1 - dones) * self.target_net(next_states).max(1).values
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.q_net.parameters(), 10.0)
        self.optimizer.step()
        with torch.no_grad():
            for p_t, p in zip(self.target_net.parameters(), self.q_net.parameters()):
                p_t.lerp_(p, self.tau)
        return loss
