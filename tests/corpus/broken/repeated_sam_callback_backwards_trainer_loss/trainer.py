"""A small callback-driven training loop."""


class Callback:
    def on_fit_start(self, trainer): pass
    def on_after_backward(self, trainer): pass
    def on_batch_end(self, trainer): pass


class Trainer:
    def __init__(self, model, optimizer, loss_fn, callbacks=()):
        self.model, self.optimizer, self.loss_fn = model, optimizer, loss_fn
        self.callbacks = list(callbacks)
        self.batch, self.loss, self.step = None, None, 0

    def _call(self, hook):
        for cb in self.callbacks:
            getattr(cb, hook)(self)

    def fit(self, batches, epochs=1):
        self._call("on_fit_start")
        for epoch in range(epochs):
            for x, y in batches:
                self.batch = (x, y)
                self.loss = self.loss_fn(self.model(x), y)
                self.optimizer.zero_grad()
                self.loss.backward()
                self._call("on_after_backward")
                self.optimizer.step()
                self.step += 1
                self._call("on_batch_end")
