"""Latent-state regularisers attached to modules through forward hooks."""


class LatentSmoothness:
    """Penalises abrupt changes of the encoder's per-step latent state.

    The penalty is backwarded right inside the hook so its gradient is accumulated as soon
    as the encoder has run (no need to thread it through the training loop)."""

    def __init__(self, module, weight=0.05):
        self.weight = weight
        self.last = 0.0
        self.handle = module.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        if not module.training:
            return
        states = output[0]
        penalty = self.weight * (states[:, 1:] - states[:, :-1]).pow(2).mean()
        penalty.backward()
        self.last = penalty.item()
