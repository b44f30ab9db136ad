"""Lightweight training diagnostics that work from the loss tensor alone, so they can be
dropped into any training loop without threading predictions through."""


class ConfidenceMonitor:
    """Tracks how confident a sigmoid segmentation head is, read from the probabilities
    that F.binary_cross_entropy kept on the loss node."""

    def __init__(self, band=0.2):
        self.band = band
        self.history = []

    def update(self, loss):
        probs = loss.grad_fn._saved_self
        uncertain = ((probs - 0.5).abs() < self.band).float().mean().item()
        self.history.append(uncertain)
        return {"mean_prob": probs.mean().item(), "uncertain_frac": uncertain}
