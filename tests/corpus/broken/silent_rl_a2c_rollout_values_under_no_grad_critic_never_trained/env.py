"""A batch of 1-D corridors: start at cell 0, the goal is the last cell."""
import torch


class Corridors:
    def __init__(self, n_envs=16, length=5):
        self.n, self.length = n_envs, length
        self.pos = torch.zeros(n_envs, dtype=torch.long)

    def observe(self):
        return torch.nn.functional.one_hot(self.pos, self.length).float()

    def reset(self):
        self.pos.zero_()
        return self.observe()

    def step(self, action):
        """action 1 moves right, 0 moves left; reaching the goal pays 1 and restarts."""
        self.pos = (self.pos + 2 * action - 1).clamp(0, self.length - 1)
        done = self.pos == self.length - 1
        reward = done.float() - 0.02
        self.pos = torch.where(done, torch.zeros_like(self.pos), self.pos)
        return self.observe(), reward, done
