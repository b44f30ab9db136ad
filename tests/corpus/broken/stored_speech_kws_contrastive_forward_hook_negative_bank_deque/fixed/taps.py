from collections import deque

import torch


class NegativeBank:
    """Keeps the last few projection outputs as extra negatives.

    Filled by a forward hook on the projection head so the training loop
    does not have to remember to push anything.
    """

    def __init__(self, size=4):
        self.items = deque(maxlen=size)

    def hook(self, module, inputs, output):
        self.items.append(output.detach())

    def negatives(self):
        if not self.items:
            return None
        return torch.cat(list(self.items), dim=0)
