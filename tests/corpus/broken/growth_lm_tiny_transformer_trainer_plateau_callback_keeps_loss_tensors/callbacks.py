"""Trainer callbacks: a progress printer and a plateau detector that halves the learning
rate when the recent losses stop improving."""


class Callback:
    def on_fit_start(self, trainer):
        pass

    def on_batch_end(self, trainer, step, loss):
        pass


class ProgressPrinter(Callback):
    def __init__(self, every=2):
        self.every = every

    def on_batch_end(self, trainer, step, loss):
        if step % self.every == 0:
            print(f"step {step} loss {loss.item():.4f} lr {trainer.lr():.4g}")


class PlateauDetector(Callback):
    """Compares the mean loss of the last `window` steps with the window before it."""

    def __init__(self, window=2, factor=0.5, min_gain=1e-3):
        self.window, self.factor, self.min_gain = window, factor, min_gain
        self.losses = []

    def on_fit_start(self, trainer):
        self.losses.clear()

    def on_batch_end(self, trainer, step, loss):
        self.losses.append(loss)
        w = self.window
        if len(self.losses) < 2 * w:
            return
        recent = sum(self.losses[-w:]) / w
        before = sum(self.losses[-2 * w:-w]) / w
        if recent > before * (1 - self.min_gain):
            for group in trainer.optimizer.param_groups:
                group["lr"] *= self.factor
            print(f"  plateau at step {step}: lr -> {trainer.lr():.4g}")
