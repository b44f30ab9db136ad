"""Callbacks for the small Trainer in train.py (fastai-style hooks)."""


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_batch_end(self, trainer, loss):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class SmoothedLoss(Callback):
    """Debiased exponential moving average of the training loss."""

    def __init__(self, beta=0.9):
        self.beta = beta

    def on_train_begin(self, trainer):
        self.avg, self.count = 0.0, 0

    def on_batch_end(self, trainer, loss):
        self.count += 1
        self.avg = self.beta * self.avg + (1 - self.beta) * loss
        trainer.state["smooth_loss"] = self.avg / (1 - self.beta ** self.count)


class ProgressPrinter(Callback):
    def __init__(self, every=3):
        self.every = every

    def on_batch_end(self, trainer, loss):
        step = trainer.state["step"]
        if step % self.every == 0:
            print(f"step {step} loss {loss.item():.4f} smooth {trainer.state['smooth_loss']:.4f}")

    def on_epoch_end(self, trainer, epoch):
        print(f"epoch {epoch} done, smooth loss {trainer.state['smooth_loss']:.4f}")
