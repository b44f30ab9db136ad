"""Callbacks run by the Trainer at the end of every epoch."""
import torch


class ValidationLoss:
    """Denoising loss on a fixed held-out set, logged once per epoch."""

    def __init__(self, val_points):
        self.val_points = val_points
        self.history = []

    def on_epoch_end(self, trainer):
        torch.set_grad_enabled(False)
        trainer.model.eval()
        gen = torch.Generator().manual_seed(123)
        loss = trainer.denoising_loss(self.val_points, generator=gen)
        self.history.append(loss.item())
        trainer.model.train()
        print(f"  val loss {self.history[-1]:.4f}")


class PrintEpoch:
    def on_epoch_end(self, trainer):
        print(f"epoch {trainer.epoch} train loss {trainer.last_loss:.4f}")
