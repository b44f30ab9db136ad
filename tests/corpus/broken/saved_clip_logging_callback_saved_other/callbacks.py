"""Callbacks for the contrastive Trainer."""


class Callback:
    def on_before_backward(self, trainer, outputs):
        pass

    def on_after_backward(self, trainer, outputs):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class SimilarityLogger(Callback):
    """Logs the mean cosine similarity of matching and of non-matching pairs, read from the
    unscaled similarity matrix that the temperature multiplication saved for backward."""

    def __init__(self):
        self.history = []

    def on_after_backward(self, trainer, outputs):
        cosine = outputs["logits"].grad_fn._saved_other
        n = cosine.size(0)
        positive = cosine.diagonal().mean().item()
        negative = (cosine.sum().item() - cosine.diagonal().sum().item()) / (n * n - n)
        self.history.append((positive, negative))

    def on_epoch_end(self, trainer, epoch):
        positive, negative = self.history[-1]
        print(f"  cos(match) {positive:.3f} cos(other) {negative:.3f}")
