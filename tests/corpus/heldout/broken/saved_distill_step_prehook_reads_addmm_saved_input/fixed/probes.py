"""Lightweight training probes that log statistics without touching the training loop."""


class PenultimateNormProbe:
    """Logs the mean L2 norm of the features that enter `classifier`, once per optimizer
    step. A forward hook remembers the classifier's output; an optimizer step pre-hook
    reads the input the classifier's matmul saved for backward."""

    def __init__(self, classifier, optimizer):
        self.output = None
        self.norms = []
        self._handles = [
            classifier.register_forward_hook(self._remember),
            optimizer.register_step_pre_hook(self._log),
        ]

    def _remember(self, module, inputs, output):
        self.output = output
        self.features_norm = inputs[0].detach().norm(dim=1).mean().item()

    def _log(self, optimizer, args, kwargs):
        self.norms.append(self.features_norm)

    def remove(self):
        for handle in self._handles:
            handle.remove()
