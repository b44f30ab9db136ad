"""Gradient accumulation over episodes: one optimizer step every `every` episodes."""


class GradAccumulator:
    def __init__(self, optimizer, every):
        self.optimizer = optimizer
        self.every = every
        self.count = 0

    def step(self, loss):
        """Backwards loss / every and steps the optimizer once `every` episodes are in."""
        (loss / self.every).backward()
        self.count += 1
        if self.count % self.every == 0:
            self.optimizer.step()
            self.optimizer.zero_grad()
            return True
        return False
