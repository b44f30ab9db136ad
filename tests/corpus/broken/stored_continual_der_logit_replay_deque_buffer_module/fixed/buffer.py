"""Bounded replay memory for Dark Experience Replay (DER)."""
from collections import deque

import torch


class LogitReplay:
    """Keeps recent inputs together with the logits the model gave them,
    so later tasks can be regularised towards the old responses."""

    def __init__(self, capacity):
        self.items = deque(maxlen=capacity)

    def __len__(self):
        return len(self.items)

    def add(self, inputs, logits):
        for x, z in zip(inputs, logits):
            self.items.append((x, z.detach()))

    def sample(self, k, generator):
        order = torch.randperm(len(self.items), generator=generator)[:k]
        xs = torch.stack([self.items[i][0] for i in order])
        zs = torch.stack([self.items[i][1] for i in order])
        return xs, zs
