"""Trainer callbacks: loss history and a periodic gradient-norm monitor."""
import math


class Callback:
    def on_loss(self, trainer, loss):
        pass

    def on_after_backward(self, trainer):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.values = []

    def on_loss(self, trainer, loss):
        self.values.append(loss.item())


class GradNormMonitor(Callback):
    """Every `every` steps, records the global gradient norm of the model (read after the
    trainer's own backward, so the loss is backwarded exactly once)."""

    def __init__(self, every=2):
        self.every = every
        self.norms = []

    def on_after_backward(self, trainer):
        if trainer.step % self.every:
            return
        total = sum(p.grad.pow(2).sum().item() for p in trainer.model.parameters()
                    if p.grad is not None)
        self.norms.append(math.sqrt(total))
