"""Proportional prioritised experience replay (small, list-backed)."""
import torch


class PrioritizedReplay:
    def __init__(self, capacity, alpha=0.6, eps=1e-3):
        self.capacity, self.alpha, self.eps = capacity, alpha, eps
        self.items, self.priorities = [], torch.zeros(capacity)
        self.next = 0

    def add(self, obs, action, reward, next_obs, done):
        item = (obs, action, reward, next_obs, done)
        if len(self.items) < self.capacity:
            self.items.append(item)
        else:
            self.items[self.next] = item
        self.priorities[self.next] = self.priorities.max().item() if self.items[1:] else 1.0
        self.next = (self.next + 1) % self.capacity

    def sample(self, batch_size):
        probs = self.priorities[: len(self.items)] ** self.alpha
        idx = torch.multinomial(probs / probs.sum(), batch_size, replacement=True)
        obs, act, rew, nxt, done = zip(*(self.items[i] for i in idx.tolist()))
        return idx, torch.stack(obs), torch.tensor(act), torch.tensor(rew), torch.stack(nxt), \
            torch.tensor(done, dtype=torch.float32)

    def update_from_loss(self, idx, td_loss):
        """Refresh priorities with |TD error|, taken from the Huber loss' own inputs."""
        prediction = td_loss.grad_fn._saved_self
        target = td_loss.grad_fn._saved_target
        self.priorities[idx] = (prediction - target).abs().detach() + self.eps
