"""Callbacks for the small Trainer in train.py."""
import torch


class Callback:
    def on_epoch_start(self, trainer):
        pass

    def on_forward_end(self, trainer, outputs):
        pass

    def on_epoch_end(self, trainer):
        pass


class AccuracyMeter(Callback):
    """Collects the logits of an epoch and prints the epoch accuracy."""

    def on_epoch_start(self, trainer):
        self.logits, self.targets = [], []

    def on_forward_end(self, trainer, outputs):
        self.logits.append(outputs["logits"].detach())
        self.targets.append(outputs["targets"])

    def on_epoch_end(self, trainer):
        preds = torch.cat(self.logits).argmax(1)
        acc = (preds == torch.cat(self.targets)).float().mean().item()
        trainer.log["acc"] = acc


class LossPrinter(Callback):
    def on_epoch_end(self, trainer):
        print(f"epoch {trainer.epoch} loss {trainer.log['loss']:.4f} acc {trainer.log['acc']:.3f}")
