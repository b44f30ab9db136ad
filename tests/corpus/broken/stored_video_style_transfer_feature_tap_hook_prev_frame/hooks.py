"""Forward-hook helpers for reading intermediate activations without touching forward()."""


class FeatureTap:
    """Keeps the hooked module's output from the current call and from the call before.

    Used for feature-level temporal consistency in video stylisation: consecutive frames
    should give similar encoder features.
    """

    def __init__(self, module):
        self.curr = None
        self.prev = None
        self.handle = module.register_forward_hook(self)

    def __call__(self, module, inputs, output):
        self.prev = self.curr
        self.curr = output

    def reset(self):
        self.curr = self.prev = None

    def remove(self):
        self.handle.remove()
