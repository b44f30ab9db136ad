import torch
import torch.nn.functional as F

from trainer import Callback


class SelfDistillation(Callback):
    """Blend last epoch's predictions for the same clips into the loss
    (label refinement for noisy weak tags)."""

    def __init__(self, weight=0.3):
        self.weight = weight
        self.soft_targets = {}

    def on_before_backward(self, trainer, outputs, batch_idx):
        loss = outputs["loss"]
        if batch_idx in self.soft_targets:
            soft = self.soft_targets[batch_idx]
            loss = loss + self.weight * F.binary_cross_entropy_with_logits(outputs["logits"], soft)
        return loss

    def on_train_batch_end(self, trainer, outputs, batch_idx):
        self.soft_targets[batch_idx] = torch.sigmoid(outputs["logits"].detach())


class LossPrinter(Callback):
    def __init__(self):
        self.epoch_losses = []

    def on_train_batch_end(self, trainer, outputs, batch_idx):
        self.epoch_losses.append(outputs["loss"].item())

    def on_train_epoch_end(self, trainer, module):
        mean = sum(self.epoch_losses) / len(self.epoch_losses)
        print(f"epoch {trainer.current_epoch} loss {mean:.4f} steps {trainer.global_step}")
        self.epoch_losses.clear()
