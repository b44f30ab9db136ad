"""Callbacks: Pi-model consistency regularisation and progress printing."""
import torch
import torch.nn.functional as F

from trainer import Callback


def augment(images):
    """Gaussian noise plus a random horizontal flip of the whole batch."""
    noisy = images + 0.15 * torch.randn_like(images)
    return noisy.flip(-1) if torch.rand(()) < 0.5 else noisy


class PiModelConsistency(Callback):
    """Penalises disagreement between the predictions on the batch and on a perturbed copy."""

    def __init__(self, weight=0.5):
        self.weight = weight
        self.last = 0.0

    def on_loss(self, trainer):
        images, _ = trainer.batch
        perturbed_logits = trainer.model(augment(images))
        consistency = F.mse_loss(perturbed_logits.softmax(-1), trainer.logits.softmax(-1))
        (self.weight * consistency).backward()
        self.last = consistency.item()


class PrintProgress(Callback):
    def __init__(self, consistency):
        self.consistency = consistency

    def on_batch_end(self, trainer):
        print(f"epoch {trainer.epoch} step {trainer.global_step} loss {trainer.loss.item():.4f} "
              f"consistency {self.consistency.last:.2e}")
