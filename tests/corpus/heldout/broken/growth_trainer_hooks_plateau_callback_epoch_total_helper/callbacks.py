"""Small Keras-style callback set for the in-house Trainer."""


class Callback:
    def on_epoch_begin(self, trainer, epoch):
        pass

    def on_batch_end(self, trainer, batch, logs):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class ReduceLROnPlateau(Callback):
    """Halves the learning rate when the mean epoch loss stops improving."""

    def __init__(self, factor=0.5, patience=1, min_delta=1e-3):
        self.factor, self.patience, self.min_delta = factor, patience, min_delta
        self.best, self.wait = float("inf"), 0
        self.epoch_total, self.seen = 0.0, 0

    def on_epoch_begin(self, trainer, epoch):
        self.epoch_total, self.seen = 0.0, 0

    def on_batch_end(self, trainer, batch, logs):
        self.epoch_total = self.epoch_total + logs["loss"] * logs["size"]
        self.seen += logs["size"]

    def on_epoch_end(self, trainer, epoch):
        mean_loss = float(self.epoch_total / self.seen)
        if mean_loss < self.best - self.min_delta:
            self.best, self.wait = mean_loss, 0
            return
        self.wait += 1
        if self.wait > self.patience:
            for group in trainer.optimizer.param_groups:
                group["lr"] *= self.factor
            self.wait = 0
            print(f"  plateau: lr -> {trainer.optimizer.param_groups[0]['lr']:.2e}")


class PrintProgress(Callback):
    def __init__(self, every=5):
        self.every = every

    def on_batch_end(self, trainer, batch, logs):
        if batch % self.every == 0:
            print(f"  batch {batch:2d}  loss {logs['loss'].item():.4f}")
