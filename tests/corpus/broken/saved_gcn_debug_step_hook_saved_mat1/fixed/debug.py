"""Debugging aid for graph networks: watch how large the aggregated neighbourhood features
are that every graph convolution feeds into its linear layer."""


class AggregationMonitor:
    """A forward hook records the norm of the aggregated features (the input each watched
    layer's Linear saved for backward) while they still exist; a step pre-hook on the
    optimizer prints them."""

    def __init__(self, layers, optimizer):
        self.norms = {}
        for name, layer in layers.items():
            layer.register_forward_hook(self._capture(name))
        optimizer.register_step_pre_hook(self._report)

    def _capture(self, name):
        def hook(module, inputs, output):
            self.norms[name] = output.grad_fn._saved_mat1.norm().item()
        return hook

    def _report(self, optimizer, args, kwargs):
        parts = [f"{name} {norm:.3f}" for name, norm in self.norms.items()]
        print("  aggregated feature norms: " + ", ".join(parts))
