"""Callbacks for the semi-supervised trainer. A callback may contribute an extra loss term
(extra_loss) and observe each step (on_batch_end)."""
import torch
import torch.nn.functional as F


class Callback:
    def extra_loss(self, batch_idx, logits):
        return None

    def on_batch_end(self, trainer, batch_idx, logits, loss):
        pass


class TemporalEnsembling(Callback):
    """Laine & Aila: keep an exponential average of each batch's predictions and pull the
    current predictions towards it (works without labels)."""

    def __init__(self, n_batches, n_per_batch, n_classes, alpha=0.6, weight=1.0):
        self.alpha, self.weight = alpha, weight
        self.targets = [torch.full((n_per_batch, n_classes), 1.0 / n_classes)
                        for _ in range(n_batches)]

    def extra_loss(self, batch_idx, logits):
        return self.weight * F.mse_loss(logits.softmax(-1), self.targets[batch_idx])

    def on_batch_end(self, trainer, batch_idx, logits, loss):
        probs = logits.softmax(-1)
        self.targets[batch_idx] = self.alpha * self.targets[batch_idx] + (1 - self.alpha) * probs


class LossPrinter(Callback):
    def on_batch_end(self, trainer, batch_idx, logits, loss):
        if batch_idx == 0:
            print(f"epoch {trainer.epoch}  loss {loss.item():.4f}")
