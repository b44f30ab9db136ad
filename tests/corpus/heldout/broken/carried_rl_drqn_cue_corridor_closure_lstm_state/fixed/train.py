"""Recurrent Q-learning (DRQN-style) on a cue-recall corridor.

The agent sees which door is the exit only on the first step of an episode; afterwards the
observations are noise, so the Q-network keeps an LSTM state between steps. The acting code
lives in a small closure (make_actor) so that the episode loop stays readable. Online
one-step TD updates after every environment step.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

OBS_DIM, N_DOORS, HIDDEN = 5, 3, 24
GAMMA, EPSILON, EPISODES, EP_LEN = 0.9, 0.25, 3, 4


class RecurrentQNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(OBS_DIM, HIDDEN)
        self.lstm = nn.LSTMCell(HIDDEN, HIDDEN)
        self.q_head = nn.Linear(HIDDEN, N_DOORS)

    def forward(self, obs, state):
        h, c = self.lstm(torch.relu(self.encoder(obs)), state)
        return self.q_head(h), (h, c)


class CueCorridor:
    """Door `exit` gives +1 at the end of the corridor; walking into a wall costs a little."""

    def reset(self):
        self.t, self.exit = 0, random.randrange(N_DOORS)
        obs = torch.zeros(1, OBS_DIM)
        obs[0, self.exit] = 1.0
        return obs

    def step(self, action):
        self.t += 1
        done = self.t >= EP_LEN
        reward = (1.0 if action == self.exit else -0.5) if done else -0.05
        return torch.randn(1, OBS_DIM) * 0.1, reward, done


def make_actor(net):
    state = None  # LSTM (h, c) of the running episode

    def act(obs):
        nonlocal state
        if state is None:
            state = (torch.zeros(1, HIDDEN), torch.zeros(1, HIDDEN))
        state = (state[0].detach(), state[1].detach())  # truncate BPTT at the step boundary
        q, state = net(obs, state)
        if random.random() < EPSILON:
            return random.randrange(N_DOORS), q
        return int(q.argmax(dim=1)), q

    def peek(obs):
        with torch.no_grad():
            q, _ = net(obs, state)
        return q

    def new_episode():
        nonlocal state
        state = None

    return act, peek, new_episode


qnet = RecurrentQNet()
optimizer = torch.optim.Adam(qnet.parameters(), lr=3e-3)
act, peek, new_episode = make_actor(qnet)
env = CueCorridor()

for episode in range(EPISODES):
    obs = env.reset()
    new_episode()
    done, ep_return, td_errors = False, 0.0, []
    while not done:
        action, q = act(obs)
        obs, reward, done = env.step(action)
        ep_return += reward
        bootstrap = 0.0 if done else GAMMA * peek(obs).max().item()
        target = torch.tensor(reward + bootstrap)
        loss = F.smooth_l1_loss(q[0, action], target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        td_errors.append(loss.item())
    print(f"episode {episode} return {ep_return:+.2f} "
          f"mean td loss {sum(td_errors) / len(td_errors):.4f}")
