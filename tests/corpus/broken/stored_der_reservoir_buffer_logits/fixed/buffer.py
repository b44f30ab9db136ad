"""Reservoir-sampling replay buffer that keeps inputs together with the logits the model
produced for them (Dark Experience Replay)."""
import random

import torch


class ReservoirBuffer:
    def __init__(self, capacity, seed=0):
        self.capacity = capacity
        self.inputs, self.logits = [], []
        self.seen = 0
        self.rng = random.Random(seed)

    def __len__(self):
        return len(self.inputs)

    def add(self, inputs, logits):
        logits = logits.detach()
        for x, z in zip(inputs, logits):
            if len(self.inputs) < self.capacity:
                self.inputs.append(x)
                self.logits.append(z)
            else:
                j = self.rng.randint(0, self.seen)
                if j < self.capacity:
                    self.inputs[j] = x
                    self.logits[j] = z
            self.seen += 1

    def sample(self, n):
        idx = self.rng.sample(range(len(self.inputs)), min(n, len(self.inputs)))
        return torch.stack([self.inputs[i] for i in idx]), torch.stack([self.logits[i] for i in idx])
