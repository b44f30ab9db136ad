"""A minimal in-house Trainer with Lightning-style callback hooks."""


class Trainer:
    def __init__(self, model, optimizer, loss_fn, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.callbacks = list(callbacks)
        self.global_step = 0

    def _call(self, hook, *args):
        for callback in self.callbacks:
            getattr(callback, hook)(self, *args)

    def fit(self, loader, epochs=1):
        for epoch in range(epochs):
            self.model.train()
            for x, y in loader:
                loss = self.loss_fn(self.model(x), y)
                self._call("on_before_backward", loss)
                self.optimizer.zero_grad()
                loss.backward()
                self._call("on_after_backward")
                self.optimizer.step()
                self.global_step += 1
                self._call("on_batch_end", loss.item())
            self._call("on_epoch_end", epoch)
