"""Micro-batch gradient accumulation used by several of our training scripts."""


class MicroBatchAccumulator:
    """Backwards each micro-batch loss scaled by 1/every and steps every `every` calls."""

    def __init__(self, optimizer, every):
        self.optimizer = optimizer
        self.every = every
        self.window_total = 0.0
        self.count = 0

    def backward(self, loss):
        (loss / self.every).backward()
        self.window_total += loss.item()
        self.count += 1
        if self.count < self.every:
            return None
        self.optimizer.step()
        self.optimizer.zero_grad()
        mean = self.window_total / self.every
        self.window_total, self.count = 0.0, 0
        return mean
