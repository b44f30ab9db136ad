"""Forward hooks used by the adaptation experiments."""
import torch


class FeatureAnchor:
    """Keeps an EMA of a layer's mean activation and exposes a penalty that
    pulls each new batch towards it, so features recorded on the source
    wearer do not drift while adapting to a new wearer."""

    def __init__(self, width, momentum=0.9):
        self.momentum = momentum
        self.anchor = torch.zeros(width)
        self.penalty = torch.zeros(())

    def __call__(self, module, inputs, output):
        batch_mean = output.mean(dim=0)
        self.penalty = (batch_mean - self.anchor).pow(2).sum()
        self.anchor = self.momentum * self.anchor + (1 - self.momentum) * batch_mean
