"""Post-processing shared by the demand models: business rules applied to raw outputs."""
import functools

import numpy as np
import torch


def nonnegative(method):
    """Units sold cannot be negative: clip the wrapped forecast at zero."""
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        forecast = method(*args, **kwargs)
        clipped = np.maximum(forecast.detach().cpu().numpy(), 0.0)
        return torch.from_numpy(clipped).to(dtype=forecast.dtype)
    return wrapper
