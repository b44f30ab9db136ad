"""Training callbacks for the small image-classification trainer in train.py."""
import torch
import torch.nn.functional as F


class Callback:
    def on_epoch_start(self, trainer):
        pass

    def on_batch_end(self, trainer, logits, labels):
        pass

    def on_epoch_end(self, trainer):
        pass


class OnlineLabelSmoothing(Callback):
    """Online label smoothing: the soft target of class k is the average predicted
    distribution of the correctly classified class-k samples of the previous epoch."""

    def __init__(self, n_classes, smoothing=0.1):
        self.n_classes = n_classes
        off = smoothing / (n_classes - 1)
        self.soft_labels = torch.full((n_classes, n_classes), off)
        self.soft_labels.fill_diagonal_(1.0 - smoothing)
        self._reset()

    def _reset(self):
        self.sum_probs = torch.zeros(self.n_classes, self.n_classes)
        self.counts = torch.zeros(self.n_classes)

    def soft_loss(self, logits, labels):
        targets = self.soft_labels[labels]
        return -(targets * F.log_softmax(logits, dim=1)).sum(dim=1).mean()

    def on_batch_end(self, trainer, logits, labels):
        probs = logits.detach().softmax(dim=1)
        hit = probs.argmax(dim=1) == labels
        self.sum_probs.index_add_(0, labels[hit], probs[hit])
        self.counts += torch.bincount(labels[hit], minlength=self.n_classes).float()

    def on_epoch_end(self, trainer):
        seen = self.counts > 0
        averaged = self.sum_probs / self.counts.clamp(min=1.0)[:, None]
        self.soft_labels = torch.where(seen[:, None], averaged, self.soft_labels)
        self._reset()


class EpochLogger(Callback):
    def on_epoch_start(self, trainer):
        self.losses = []

    def on_batch_end(self, trainer, logits, labels):
        self.losses.append(trainer.last_loss)

    def on_epoch_end(self, trainer):
        mean = sum(self.losses) / len(self.losses)
        print(f"epoch {trainer.epoch}  mean loss {mean:.4f}")
