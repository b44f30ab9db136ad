"""A minimal Lightning-like engine: subclasses return the loss, fit() does the backward."""
import torch


class Trainer:
    def __init__(self, model, lr=1e-2, max_epochs=2):
        self.model = model
        self.max_epochs = max_epochs
        self.optimizer = self.configure_optimizer(lr)

    def configure_optimizer(self, lr):
        return torch.optim.Adam(self.model.parameters(), lr=lr)

    def training_step(self, batch):
        raise NotImplementedError

    def fit(self, loader):
        for epoch in range(self.max_epochs):
            self.model.train()
            for batch in loader:
                self.optimizer.zero_grad()
                loss = self.training_step(batch)
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch} loss {loss.item():.4f}")
