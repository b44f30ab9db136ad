"""Forward-hook helpers for reading intermediate activations out of a model."""


class FeatureRecorder:
    """Keeps the latest output of `module` in .features (detached by default, for logging
    and visualisation)."""

    def __init__(self, module, detach=True):
        self.detach = detach
        self.features = None
        self.handle = module.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        self.features = output.detach() if self.detach else output

    def remove(self):
        self.handle.remove()
