"""A minimal callback-driven trainer (in the spirit of Lightning / fastai)."""
import torch.nn.functional as F


class Callback:
    def on_fit_start(self, trainer):
        pass

    def on_loss(self, trainer):
        pass

    def on_batch_end(self, trainer):
        pass


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.global_step = 0

    def _fire(self, event):
        for cb in self.callbacks:
            getattr(cb, event)(self)

    def fit(self, loader, epochs=1):
        self._fire("on_fit_start")
        for self.epoch in range(epochs):
            for self.batch in loader:
                x, y = self.batch
                self.optimizer.zero_grad()
                self.logits = self.model(x)
                self.loss = F.cross_entropy(self.logits, y)
                self._fire("on_loss")
                self.loss.backward()
                self.optimizer.step()
                self.global_step += 1
                self._fire("on_batch_end")
