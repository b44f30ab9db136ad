"""Running input-x-gradient attribution of the pooled channels feeding a classifier layer.
Hooks only; the training loop does not need to know about it."""
import torch


class ChannelAttribution:
    def __init__(self, layer, momentum=0.9):
        self.momentum = momentum
        self.scores = None
        self._out = None
        layer.register_forward_hook(self._keep_output)
        layer.register_full_backward_hook(self._accumulate)

    def _keep_output(self, module, inputs, output):
        # keep only the autograd node; the node already holds the layer input
        self._out = output

    def _accumulate(self, module, grad_input, grad_output):
        features = self._out.grad_fn._saved_mat1
        contrib = (features * grad_input[0]).abs().mean(0)
        with torch.no_grad():
            if self.scores is None:
                self.scores = contrib.clone()
            else:
                self.scores.mul_(self.momentum).add_(contrib, alpha=1 - self.momentum)

    def top_channels(self, k=3):
        return self.scores.topk(k).indices.tolist()
