"""Post-processing shared by the demand models: business rules applied to raw outputs."""
import functools


def nonnegative(method):
    """Units sold cannot be negative: clip the wrapped forecast at zero."""
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        forecast = method(*args, **kwargs)
        return forecast.clamp_min(0.0)
    return wrapper
