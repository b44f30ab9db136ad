"""Guards against the activation blow-ups the cross network shows on heavy-tailed count
features."""
import torch


class ActivationClipper:
    """Forward hook that bounds a module's output to [-limit, limit] and counts how often the
    bound was hit."""

    def __init__(self, limit):
        self.limit = limit
        self.clipped = 0

    def __call__(self, module, inputs, output):
        self.clipped += int((output.abs() > self.limit).sum())
        return torch.clamp(output, -self.limit, self.limit)
