"""A small Trainer with gradient accumulation and callbacks."""


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
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.updates += 1
        mean_loss = sum(self._pending) / len(self._pending)
        self._pending = []
        for cb in self.callbacks:
            cb.on_update(self, mean_loss)

    def fit(self, batches, epochs=1):
        for epoch in range(epochs):
            self._pending = []
            self.optimizer.zero_grad()
            for cb in self.callbacks:
                cb.on_epoch_start(self, epoch)
            for i, batch in enumerate(batches):
                loss = self.training_step(batch)
                (loss / self.accumulate).backward()
                self._pending.append(loss.item())
                if (i + 1) % self.accumulate == 0:
                    self._apply_update()
