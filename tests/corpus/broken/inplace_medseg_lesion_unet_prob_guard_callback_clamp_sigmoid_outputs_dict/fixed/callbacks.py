"""Callbacks for the lesion segmentation trainer: each hook gets the trainer and what the
step produced, so experiment-specific tweaks stay out of the training loop."""


class Callback:
    def on_forward_end(self, trainer, outputs):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass


class ProbabilityGuard(Callback):
    """Keeps the predicted foreground probabilities away from exactly 0 and 1 so the log()
    terms of the BCE part of the loss stay finite on saturated pixels."""

    def __init__(self, eps=1e-4):
        self.eps = eps

    def on_forward_end(self, trainer, outputs):
        outputs["probs"] = outputs["probs"].clamp(self.eps, 1.0 - self.eps)


class EpochLogger(Callback):
    def __init__(self):
        self.history = []

    def on_epoch_end(self, trainer, epoch, logs):
        self.history.append(logs)
        print(f"epoch {epoch} loss {logs['loss']:.4f} dice {logs['dice']:.4f}")
