"""Callbacks for the small Trainer in train.py. The trainer only runs forward passes and
hands each batch loss to its callbacks; optimisation itself is a callback, so that gradient
accumulation, clipping or logging can be swapped in and out from the config."""
import torch


class Callback:
    def on_fit_start(self, trainer):
        pass

    def on_batch_end(self, trainer, batch_idx, loss):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class GradientAccumulation(Callback):
    """Average the loss over `every` batches and take one optimizer step per window."""

    def __init__(self, every=2, max_norm=1.0):
        self.every, self.max_norm = every, max_norm
        self.pending, self.seen = 0.0, 0

    def on_batch_end(self, trainer, batch_idx, loss):
        self.pending = self.pending + loss / self.every
        self.seen += 1
        if self.seen % self.every == 0:
            trainer.optimizer.zero_grad()
            self.pending.backward()
            torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), self.max_norm)
            trainer.optimizer.step()
            trainer.global_step += 1


class LossLogger(Callback):
    def __init__(self):
        self.history = []

    def on_batch_end(self, trainer, batch_idx, loss):
        self.history.append(loss.item())

    def on_epoch_end(self, trainer, epoch):
        recent = self.history[-4:]
        print(f"epoch {epoch} steps {trainer.global_step} "
              f"mean loss {sum(recent) / len(recent):.4f}")
