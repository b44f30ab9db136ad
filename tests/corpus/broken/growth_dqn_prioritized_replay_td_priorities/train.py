"""DQN with prioritized experience replay on a small chain world (walk right to reach the
reward). After every update the sampled transitions get new priorities from their TD
errors, and new transitions enter with the largest priority seen so far."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
N_STATES, N_ACTIONS, GAMMA = 6, 2, 0.9


class ChainEnv:
    def reset(self):
        self.pos = 0
        return F.one_hot(torch.tensor(self.pos), N_STATES).float()

    def step(self, action):
        self.pos = max(0, min(N_STATES - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == N_STATES - 1
        obs = F.one_hot(torch.tensor(self.pos), N_STATES).float()
        return obs, float(done), float(done)


class PrioritizedReplay:
    def __init__(self, alpha=0.6, beta=0.4):
        self.alpha, self.beta = alpha, beta
        self.transitions = []
        self.priorities = []

    def push(self, transition):
        self.transitions.append(transition)
        self.priorities.append(max(self.priorities, default=1.0))

    @torch.no_grad()
    def sample(self, batch_size):
        prios = torch.stack([torch.as_tensor(p, dtype=torch.float32) for p in self.priorities])
        probs = prios ** self.alpha / (prios ** self.alpha).sum()
        idx = torch.multinomial(probs, batch_size, replacement=True)
        weights = (len(self.transitions) * probs[idx]) ** -self.beta
        batch = [self.transitions[i] for i in idx.tolist()]
        return idx, batch, weights / weights.max()

    def update(self, indices, td_errors):
        for i, err in zip(indices.tolist(), td_errors):
            self.priorities[i] = err.abs() + 1e-3


def learn(online, target, optimizer, buffer, batch_size=8):
    idx, batch, weights = buffer.sample(batch_size)
    obs, act, rew, nxt, done = (torch.stack([torch.as_tensor(t[k]) for t in batch])
                                for k in range(5))
    q = online(obs).gather(1, act[:, None]).squeeze(1)
    with torch.no_grad():
        target_q = rew + GAMMA * (1 - done) * target(nxt).max(1).values
    td = q - target_q
    loss = (weights * F.smooth_l1_loss(q, target_q, reduction="none")).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    buffer.update(idx, td)
    return loss.item()


online = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
target = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
target.load_state_dict(online.state_dict())
optimizer = torch.optim.Adam(online.parameters(), lr=5e-3)
buffer, env = PrioritizedReplay(), ChainEnv()
obs = env.reset()
for it in range(8):
    for _ in range(6):
        with torch.no_grad():
            greedy = int(online(obs).argmax())
        action = random.randrange(N_ACTIONS) if random.random() < 0.3 else greedy
        nxt, reward, done = env.step(action)
        buffer.push((obs, action, reward, nxt, done))
        obs = env.reset() if done else nxt
    loss = learn(online, target, optimizer, buffer)
    if it % 4 == 3:
        target.load_state_dict(online.state_dict())
    print(f"iter {it} loss {loss:.4f} buffer {len(buffer.transitions)}")
