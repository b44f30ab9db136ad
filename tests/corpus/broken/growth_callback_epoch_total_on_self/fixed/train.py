"""A minimal Trainer with Keras-style callbacks. LossHistory sums the batch losses of an
epoch on itself and records the epoch mean; the model is a small wine-quality style
regressor on synthetic data."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Callback:
    def on_epoch_start(self, trainer):
        pass

    def on_batch_end(self, trainer, loss):
        pass

    def on_epoch_end(self, trainer):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.history = []

    def on_epoch_start(self, trainer):
        self.epoch_total, self.batches = 0.0, 0

    def on_batch_end(self, trainer, loss):
        self.epoch_total = self.epoch_total + loss.item()
        self.batches += 1

    def on_epoch_end(self, trainer):
        self.history.append(float(self.epoch_total / self.batches))
        print(f"epoch {trainer.epoch} mean loss {self.history[-1]:.4f}")


class Trainer:
    def __init__(self, model, optimizer, loss_fn, callbacks=()):
        self.model, self.optimizer, self.loss_fn = model, optimizer, loss_fn
        self.callbacks = list(callbacks)
        self.epoch = 0

    def _emit(self, event, *args):
        for cb in self.callbacks:
            getattr(cb, event)(self, *args)

    def fit(self, loader, epochs):
        for self.epoch in range(epochs):
            self._emit("on_epoch_start")
            for x, y in loader:
                loss = self.loss_fn(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self._emit("on_batch_end", loss)
            self._emit("on_epoch_end")


x = torch.randn(160, 11)
y = (x[:, :4].sum(1, keepdim=True) + 0.5 * x[:, 4:5] ** 2 + 0.1 * torch.randn(160, 1))
loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=False)
model = nn.Sequential(nn.Linear(11, 32), nn.ReLU(), nn.Linear(32, 1))
history = LossHistory()
trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9),
                  nn.MSELoss(), callbacks=[history])
trainer.fit(loader, epochs=2)
print("history", [round(v, 4) for v in history.history])
