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

    def _log(self, optimizer, args, kwargs):
        features = self.output.grad_fn._saved_mat1
        self.norms.append(features.norm(dim=1).mean().item())

    def remove(self):
        for handle in self._handles:
            handle.remove()
