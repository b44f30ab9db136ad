"""Exploration bonus from an episodic memory (a much simplified Never-Give-Up): an encoder
trained with an inverse-dynamics loss embeds observations, and the intrinsic reward of a
transition is the distance from the new embedding to its nearest neighbour in memory."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
GRID, EMB, N_ACTIONS, BATCH = 7, 8, 4, 16
MOVES = torch.tensor([[0, 1], [0, -1], [1, 0], [-1, 0]])


def observe(pos):
    return torch.cat([F.one_hot(pos[:, 0], GRID), F.one_hot(pos[:, 1], GRID)], dim=1).float()


class EpisodicNovelty:
    def __init__(self, lr=3e-3):
        self.encoder = nn.Sequential(nn.Linear(2 * GRID, 32), nn.ReLU(), nn.Linear(32, EMB))
        self.inverse_head = nn.Linear(2 * EMB, N_ACTIONS)
        self.memory = deque()
        self.optimizer = torch.optim.Adam(
            [*self.encoder.parameters(), *self.inverse_head.parameters()], lr=lr)

    def bonus(self, emb):
        if not self.memory:
            return torch.ones(len(emb))
        with torch.no_grad():
            bank = torch.cat(list(self.memory))
            return torch.cdist(emb, bank).min(dim=1).values

    def update(self, obs, next_obs, actions):
        emb, next_emb = self.encoder(obs), self.encoder(next_obs)
        logits = self.inverse_head(torch.cat([emb, next_emb], dim=1))
        loss = F.cross_entropy(logits, actions)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        reward = self.bonus(next_emb)
        self.memory.append(next_emb)
        return loss.item(), reward.mean().item()


agent = EpisodicNovelty()
pos = torch.randint(0, GRID, (BATCH, 2))
for step in range(10):
    actions = torch.randint(0, N_ACTIONS, (BATCH,))
    next_pos = (pos + MOVES[actions]).clamp(0, GRID - 1)
    inv_loss, novelty = agent.update(observe(pos), observe(next_pos), actions)
    pos = next_pos
    print(f"step {step} inverse loss {inv_loss:.4f} novelty {novelty:.4f} "
          f"memory {len(agent.memory)}")
