"""Training monitors shared by the recommender experiments."""
import math


class EMA:
    """Exponential moving average of a scalar or a tensor."""

    def __init__(self, decay=0.9):
        self.decay = decay
        self.value = None

    def update(self, x):
        if self.value is None:
            self.value = x
        else:
            self.value = self.decay * self.value + (1 - self.decay) * x
        return self.value


def coverage_entropy(exposure):
    """Normalised entropy of the predicted exposure over the catalogue (1 = uniform)."""
    p = exposure / exposure.sum()
    return float(-(p * p.clamp_min(1e-12).log()).sum()) / math.log(len(p))
