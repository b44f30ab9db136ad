"""Callbacks for the ticket-routing Trainer."""
import torch


class EvalModeCallback:
    """Validation runs in eval mode without autograd; training mode is restored afterwards."""

    def on_validation_start(self, trainer):
        trainer.model.eval()
        self._no_grad = torch.no_grad()
        self._no_grad.__enter__()

    def on_validation_end(self, trainer):
        self._no_grad.__exit__(None, None, None)
        trainer.model.train()


class HistoryCallback:
    def __init__(self):
        self.val = []

    def on_validation_end(self, trainer):
        self.val.append(trainer.last_val_loss)

    def on_epoch_end(self, trainer):
        print(f"epoch {trainer.epoch} train loss {trainer.last_train_loss:.4f}")
