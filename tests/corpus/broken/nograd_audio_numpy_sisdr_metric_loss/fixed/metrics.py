"""Evaluation metrics for the speech-enhancement experiments."""
import torch


def si_sdr(estimate, reference, eps=1e-8):
    """Mean scale-invariant signal-to-distortion ratio in dB over a batch of waveforms."""
    est = estimate - estimate.mean(dim=-1, keepdim=True)
    ref = reference - reference.mean(dim=-1, keepdim=True)
    scale = (est * ref).sum(-1, keepdim=True) / ((ref ** 2).sum(-1, keepdim=True) + eps)
    target = scale * ref
    noise = est - target
    ratio = (target ** 2).sum(-1) / ((noise ** 2).sum(-1) + eps)
    return torch.mean(10 * torch.log10(ratio + eps))
