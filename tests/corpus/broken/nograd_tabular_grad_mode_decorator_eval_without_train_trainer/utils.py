"""Small helpers shared by the tabular experiments."""
import functools
import time

import torch


def grad_only_in_training(forward):
    """Decorator for nn.Module.forward: build the autograd graph only while the module is in
    training mode, so evaluation passes never keep activations around."""
    @functools.wraps(forward)
    def wrapper(self, *args, **kwargs):
        with torch.set_grad_enabled(self.training):
            return forward(self, *args, **kwargs)
    return wrapper


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start
