"""Latent-state regularisers attached to modules through forward hooks."""


class LatentSmoothness:
    """Penalises abrupt changes of the encoder's per-step latent state.

    The hook only computes the penalty; the training loop adds it to the task loss so
    that one backward goes through the encoder."""

    def __init__(self, module, weight=0.05):
        self.weight = weight
        self.last = 0.0
        self.penalty = 0.0
        self.handle = module.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        if not module.training:
            return
        states = output[0]
        self.penalty = self.weight * (states[:, 1:] - states[:, :-1]).pow(2).mean()
        self.last = self.penalty.item()
