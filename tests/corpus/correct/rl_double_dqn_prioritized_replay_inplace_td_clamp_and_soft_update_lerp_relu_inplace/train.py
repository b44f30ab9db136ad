"""Double DQN with a small prioritised replay on a 4x4 grid world: the goal in the far
corner pays 1, a pit pays -1, every other move costs 0.02. The target network follows the
online one by Polyak averaging after each update."""
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

SIDE, GAMMA, TAU, V_MAX = 4, 0.95, 0.1, 5.0
CAPACITY, BATCH, WARMUP, ENV_STEPS = 64, 16, 25, 32
MOVES = [(-1, 0), (1, 0), (0, -1), (0, 1)]
GOAL, PIT = (3, 3), (1, 2)


class GridWorld:
    def __init__(self):
        self.pos = (0, 0)

    def step(self, action):
        dr, dc = MOVES[action]
        self.pos = (min(max(self.pos[0] + dr, 0), SIDE - 1), min(max(self.pos[1] + dc, 0), SIDE - 1))
        if self.pos in (GOAL, PIT):
            reward = 1.0 if self.pos == GOAL else -1.0
            self.pos = (0, 0)
            return self.pos, reward, 1.0
        return self.pos, -0.02, 0.0


def encode(positions):
    index = torch.tensor([r * SIDE + c for r, c in positions])
    return F.one_hot(index, SIDE * SIDE).float()


def make_qnet(hidden=32):
    return nn.Sequential(nn.Linear(SIDE * SIDE, hidden), nn.ReLU(inplace=True),
                         nn.Linear(hidden, hidden), nn.ReLU(inplace=True),
                         nn.Linear(hidden, len(MOVES)))


class PrioritisedReplay:
    def __init__(self):
        self.items = []
        self.priorities = torch.zeros(CAPACITY)

    def add(self, transition):
        slot = len(self.items) % CAPACITY
        if len(self.items) < CAPACITY:
            self.items.append(transition)
        else:
            self.items[slot] = transition
        self.priorities[slot] = self.priorities[:len(self.items)].max().clamp_min(1.0)

    def sample(self, generator):
        probs = self.priorities[:len(self.items)] / self.priorities[:len(self.items)].sum()
        idx = torch.multinomial(probs, BATCH, replacement=True, generator=generator)
        batch = [self.items[i] for i in idx.tolist()]
        return idx, batch

    def update(self, idx, td_error):
        self.priorities[idx] = td_error + 1e-3


class Agent:
    def __init__(self):
        self.online = make_qnet()
        self.target = copy.deepcopy(self.online).requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=3e-3)
        self.replay = PrioritisedReplay()

    def act(self, pos, epsilon):
        if random.random() < epsilon:
            return random.randrange(len(MOVES))
        with torch.no_grad():
            return int(self.online(encode([pos])).argmax(dim=1))

    def learn(self, generator):
        idx, batch = self.replay.sample(generator)
        s, a, r, s2, done = zip(*batch)
        obs, next_obs = encode(s), encode(s2)
        rewards, dones = torch.tensor(r), torch.tensor(done)
        q = self.online(obs).gather(1, torch.tensor(a)[:, None]).squeeze(1)
        with torch.no_grad():
            next_actions = self.online(next_obs).argmax(dim=1, keepdim=True)
            next_q = self.target(next_obs).gather(1, next_actions).squeeze(1)
            td_target = rewards + GAMMA * (1.0 - dones) * next_q
            td_target.clamp_(-V_MAX, V_MAX)
        loss = F.smooth_l1_loss(q, td_target)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.online.parameters(), 5.0)
        self.optimizer.step()
        with torch.no_grad():
            for target_p, online_p in zip(self.target.parameters(), self.online.parameters()):
                target_p.lerp_(online_p, TAU)
        self.replay.update(idx, (q - td_target).abs().detach())
        return loss.item()


def main():
    torch.manual_seed(0)
    random.seed(0)
    generator = torch.Generator().manual_seed(19)
    env, agent = GridWorld(), Agent()
    pos = env.pos
    for t in range(ENV_STEPS):
        action = agent.act(pos, epsilon=max(0.2, 1.0 - t / ENV_STEPS))
        next_pos, reward, done = env.step(action)
        agent.replay.add((pos, action, reward, next_pos, done))
        pos = next_pos
        if len(agent.replay.items) >= WARMUP:
            print(f"t {t} td-loss {agent.learn(generator):.4f}")
    with torch.no_grad():
        values = agent.online(encode([(r, c) for r in range(SIDE) for c in range(SIDE)]))
    print("greedy", values.argmax(dim=1).tolist())
    print(f"q checksum {values.sum().item():.4f}")


if __name__ == "__main__":
    main()
