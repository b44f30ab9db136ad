"""Minimal training engine: subclasses implement training_step and return the loss."""


class BaseTrainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.global_step = 0

    def training_step(self, batch):
        raise NotImplementedError

    def on_after_backward(self):
        """Hook: gradients are populated, the optimizer has not stepped yet."""

    def fit(self, loader, epochs=1):
        for epoch in range(epochs):
            for batch in loader:
                self.optimizer.zero_grad()
                loss = self.training_step(batch)
                loss.backward()
                self.on_after_backward()
                self.optimizer.step()
                self.global_step += 1
                print(f"epoch {epoch} step {self.global_step} loss {loss.item():.4f}")
