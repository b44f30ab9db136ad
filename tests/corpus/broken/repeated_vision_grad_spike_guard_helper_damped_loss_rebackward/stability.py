"""Training-stability helpers shared by the vision experiments."""
import math

import torch


def grad_norm(params):
    norms = [p.grad.detach().norm() for p in params if p.grad is not None]
    return torch.stack(norms).norm().item() if norms else 0.0


class GradSpikeGuard:
    """Backward with protection against gradient spikes: when the gradient norm of a step
    exceeds `max_norm`, the step is redone with the loss damped so that the update keeps a
    bounded size. Keeps a count of spikes for the logs."""

    def __init__(self, params, max_norm=1.0):
        self.params = [p for p in params if p.requires_grad]
        self.max_norm = max_norm
        self.spikes = 0
        self.history = []

    def backward(self, loss):
        loss.backward()
        norm = grad_norm(self.params)
        if not math.isfinite(norm) or norm > self.max_norm:
            self.spikes += 1
            for p in self.params:
                p.grad = None
            damping = self.max_norm / (norm + 1e-6) if math.isfinite(norm) else 0.0
            (loss * damping).backward()
        self.history.append(norm)
        return norm
