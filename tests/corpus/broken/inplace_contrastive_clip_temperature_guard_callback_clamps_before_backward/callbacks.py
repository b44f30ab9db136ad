"""Trainer callbacks for the image-text pretraining run."""
import torch


class Callback:
    def on_before_backward(self, trainer, loss):
        pass

    def on_step_end(self, trainer, loss):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class LossLogger(Callback):
    def __init__(self):
        self.history = []

    def on_step_end(self, trainer, loss):
        self.history.append(loss.item())

    def on_epoch_end(self, trainer, epoch):
        recent = self.history[-trainer.steps_per_epoch:]
        print(f"epoch {epoch} contrastive loss {sum(recent) / len(recent):.4f}")


class TemperatureGuard(Callback):
    """Keeps the learned softmax temperature inside [min_t, max_t]; CLIP clips it so the
    logits are never scaled by more than 100."""

    def __init__(self, min_t=0.01, max_t=1.0):
        self.min_t, self.max_t = min_t, max_t

    def on_before_backward(self, trainer, loss):
        model = trainer.model
        with torch.no_grad():
            model.temperature.clamp_(self.min_t, self.max_t)
