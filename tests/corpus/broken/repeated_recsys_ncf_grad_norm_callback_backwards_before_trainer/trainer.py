"""A minimal callback-driven trainer for implicit-feedback recommenders."""
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.step = 0

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for users, items, labels in batches:
                self.step += 1
                logits = self.model(users, items)
                loss = F.binary_cross_entropy_with_logits(logits, labels)
                self.optimizer.zero_grad()
                for cb in self.callbacks:
                    cb.on_loss(self, loss)
                loss.backward()
                for cb in self.callbacks:
                    cb.on_after_backward(self)
                self.optimizer.step()
            print(f"epoch {epoch} last loss {loss.item():.4f}")
