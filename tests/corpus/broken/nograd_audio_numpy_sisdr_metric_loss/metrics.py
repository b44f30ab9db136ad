"""Evaluation metrics for the speech-enhancement experiments."""
import numpy as np


def si_sdr(estimate, reference, eps=1e-8):
    """Mean scale-invariant signal-to-distortion ratio in dB over a batch of waveforms."""
    est = estimate.detach().cpu().numpy()
    ref = reference.detach().cpu().numpy()
    est = est - est.mean(axis=-1, keepdims=True)
    ref = ref - ref.mean(axis=-1, keepdims=True)
    scale = (est * ref).sum(-1, keepdims=True) / ((ref ** 2).sum(-1, keepdims=True) + eps)
    target = scale * ref
    noise = est - target
    ratio = (target ** 2).sum(-1) / ((noise ** 2).sum(-1) + eps)
    return float(np.mean(10 * np.log10(ratio + eps)))
