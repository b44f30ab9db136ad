"""Latent replay (Pellegrini et al., 2020) as a trainer callback: instead of raw inputs, the
memory keeps the activations of the latent layer (the backbone's output) together with their
labels, and every update also fits the head on a sample of them."""
from collections import deque

import torch
import torch.nn.functional as F


class LatentReplayCallback:
    def __init__(self, capacity=48, replay_size=12, weight=0.5):
        self.memory = deque(maxlen=capacity)
        self.replay_size = replay_size
        self.weight = weight

    def replay_loss(self, trainer):
        if len(self.memory) < self.replay_size:
            return None
        idx = torch.randperm(len(self.memory))[:self.replay_size].tolist()
        latents = torch.stack([self.memory[i][0] for i in idx])
        labels = torch.stack([self.memory[i][1] for i in idx])
        return self.weight * F.cross_entropy(trainer.model.head(latents), labels)

    def on_batch_end(self, trainer, latents, labels):
        for z, y in zip(latents, labels):
            self.memory.append((z.detach(), y))
