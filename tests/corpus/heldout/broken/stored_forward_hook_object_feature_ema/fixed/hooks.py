"""Training-time helpers attached to a model with forward hooks."""
import torch


class FeatureCentering:
    """Forward hook that keeps an exponential moving average of a layer's mean activation.
    penalty() pulls the current batch's features towards that running centre, a cheap
    regulariser against feature drift between batches."""

    def __init__(self, module, num_features, momentum=0.9):
        self.momentum = momentum
        self.running_mean = torch.zeros(num_features)
        self.features = None
        self.handle = module.register_forward_hook(self)

    def __call__(self, module, inputs, output):
        self.features = output
        batch_mean = output.mean(dim=0)
        self.running_mean = self.momentum * self.running_mean + (1 - self.momentum) * batch_mean.detach()

    def penalty(self):
        return (self.features - self.running_mean).pow(2).sum(dim=1).mean()

    def remove(self):
        self.handle.remove()
