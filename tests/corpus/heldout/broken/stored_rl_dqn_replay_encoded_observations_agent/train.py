"""DQN with a learned observation encoder on a 1-D balancing task (keep the cart near the
centre). The agent encodes each observation once when it acts and keeps the encoding in
its replay memory so that updates do not have to run the encoder again."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

OBS_DIM, LATENT, N_ACTIONS = 4, 16, 3
GAMMA, BATCH, WARMUP = 0.9, 6, 8


class CartLine:
    def reset(self):
        self.x, self.v, self.t = random.uniform(-0.5, 0.5), 0.0, 0
        return self.obs()

    def obs(self):
        return torch.tensor([self.x, self.v, self.x * self.x, 1.0])

    def step(self, action):
        self.v = 0.8 * self.v + 0.1 * (action - 1) + random.gauss(0.0, 0.02)
        self.x = max(-1.0, min(1.0, self.x + self.v))
        self.t += 1
        return self.obs(), 1.0 - abs(self.x), self.t >= 10


class Agent:
    def __init__(self, epsilon=0.2):
        self.encoder = nn.Sequential(nn.Linear(OBS_DIM, LATENT), nn.ReLU())
        self.q_head = nn.Linear(LATENT, N_ACTIONS)
        params = list(self.encoder.parameters()) + list(self.q_head.parameters())
        self.optimizer = torch.optim.Adam(params, lr=1e-2)
        self.replay = deque(maxlen=500)
        self.epsilon = epsilon

    def act(self, obs):
        z = self.encoder(obs)
        if random.random() < self.epsilon:
            return z, random.randrange(N_ACTIONS)
        return z, int(self.q_head(z).argmax())

    def remember(self, z, action, reward, next_obs, done):
        self.replay.append((z, action, reward, next_obs, done))

    def update(self):
        batch = random.sample(self.replay, BATCH)
        z, actions, rewards, next_obs, dones = zip(*batch)
        q = self.q_head(torch.stack(z)).gather(1, torch.tensor(actions)[:, None]).squeeze(1)
        with torch.no_grad():
            next_q = self.q_head(self.encoder(torch.stack(next_obs))).max(dim=1).values
            target = torch.tensor(rewards) + GAMMA * next_q * (1 - torch.tensor(dones, dtype=torch.float32))
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main(episodes=2):
    random.seed(0)
    torch.manual_seed(0)
    env, agent = CartLine(), Agent()
    for episode in range(episodes):
        obs, done, total, losses = env.reset(), False, 0.0, []
        while not done:
            z, action = agent.act(obs)
            next_obs, reward, done = env.step(action)
            agent.remember(z, action, reward, next_obs, done)
            if len(agent.replay) >= WARMUP:
                losses.append(agent.update())
            obs, total = next_obs, total + reward
        print(f"episode {episode}: return {total:.3f} td loss {sum(losses) / max(len(losses), 1):.4f}")


if __name__ == "__main__":
    main()
