"""A small Trainer with gradient accumulation and callbacks."""
import torch


class Callback:
    def on_epoch_start(self, trainer, epoch):
        pass

    def on_update(self, trainer, loss_value):
        pass


class Trainer:
    def __init__(self, model, optimizer, accumulate=2, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.accumulate = accumulate
        self.callbacks = list(callbacks)
        self.updates = 0
        self._pending = []

    def training_step(self, batch):
        raise NotImplementedError

    def _apply_update(self):
        total = torch.stack(self._pending).mean()
        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        self.updates += 1
        for cb in self.callbacks:
            cb.on_update(self, total.item())

    def fit(self, batches, epochs=1):
        for epoch in range(epochs):
            self._pending = []
            for cb in self.callbacks:
                cb.on_epoch_start(self, epoch)
            for i, batch in enumerate(batches):
                loss = self.training_step(batch)
                self._pending.append(loss)
                if (i + 1) % self.accumulate == 0:
                    self._apply_update()
