"""Debugging aid for graph networks: watch how large the aggregated neighbourhood features
are that every graph convolution feeds into its linear layer."""


class AggregationMonitor:
    """A forward hook remembers each watched layer's output; a step pre-hook on the optimizer
    prints the norm of the aggregated features (the input its Linear saved for backward)."""

    def __init__(self, layers, optimizer):
        self.outputs = {}
        for name, layer in layers.items():
            layer.register_forward_hook(self._capture(name))
        optimizer.register_step_pre_hook(self._report)

    def _capture(self, name):
        def hook(module, inputs, output):
            self.outputs[name] = output
        return hook

    def _report(self, optimizer, args, kwargs):
        parts = []
        for name, out in self.outputs.items():
            aggregated = out.grad_fn._saved_mat1
            parts.append(f"{name} {aggregated.norm().item():.3f}")
        print("  aggregated feature norms: " + ", ".join(parts))
