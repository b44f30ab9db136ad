"""Deep supervision (PSPNet-style auxiliary head on the mid-level features) and logging."""
import torch.nn as nn
import torch.nn.functional as F

from trainer import Callback


class DeepSupervision(Callback):
    """Adds an auxiliary segmentation head on `layer`: the forward hook computes its loss and
    on_loss hands it to the trainer, which backwards it together with the task losses."""

    def __init__(self, layer, channels, n_classes, weight=0.4):
        self.layer = layer
        self.head = nn.Conv2d(channels, n_classes, kernel_size=1)
        self.weight = weight
        self.target = None
        self.pending = None
        self.last = 0.0

    def on_fit_start(self, trainer):
        self.layer.register_forward_hook(self._hook)

    def on_batch_start(self, trainer):
        _, self.target, _ = trainer.batch

    def _hook(self, module, inputs, output):
        if not module.training or self.target is None:
            return
        self.pending = self.weight * F.cross_entropy(self.head(output), self.target)

    def on_loss(self, trainer):
        if self.pending is not None:
            trainer.loss_terms["aux"] = self.pending
            self.last = self.pending.item()
            self.pending = None


class EpochLogger(Callback):
    def __init__(self, aux):
        self.aux = aux

    def on_epoch_end(self, trainer):
        last = trainer.history[-1]
        print(f"epoch {trainer.epoch} seg {last['seg']:.4f} depth {last['depth']:.4f} "
              f"aux {self.aux.last:.4f}")
