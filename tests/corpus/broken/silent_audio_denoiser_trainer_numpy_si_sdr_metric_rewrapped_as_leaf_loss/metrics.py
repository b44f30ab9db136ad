"""Evaluation metrics shared with the offline benchmark (NumPy, no torch dependency)."""
import numpy as np


def si_sdr(estimate, reference, eps=1e-8):
    """Scale-invariant SDR in dB, one value per row of (batch, samples) arrays."""
    estimate = estimate - estimate.mean(axis=-1, keepdims=True)
    reference = reference - reference.mean(axis=-1, keepdims=True)
    alpha = (estimate * reference).sum(-1, keepdims=True) / ((reference ** 2).sum(-1, keepdims=True) + eps)
    target = alpha * reference
    noise = estimate - target
    return 10 * np.log10(((target ** 2).sum(-1) + eps) / ((noise ** 2).sum(-1) + eps))
