"""Forward-hook helper that records a module's outputs."""


class ActivationCatcher:
    def __init__(self, module):
        self.outputs = []
        self.handle = module.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        self.outputs.append(output)

    def clear(self):
        self.outputs.clear()

    def remove(self):
        self.handle.remove()
