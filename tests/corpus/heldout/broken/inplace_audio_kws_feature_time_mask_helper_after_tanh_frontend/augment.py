"""Feature-space SpecAugment used by the keyword-spotting recipes."""
import torch


def time_mask_(feats, max_width=4, n_masks=2, generator=None):
    """Zero `n_masks` random stretches of frames of a (batch, channels, frames) tensor.
    Works in place so no extra activation buffer is allocated."""
    n_frames = feats.shape[-1]
    for b in range(feats.shape[0]):
        for _ in range(n_masks):
            width = int(torch.randint(1, max_width + 1, (1,), generator=generator))
            start = int(torch.randint(0, n_frames - width, (1,), generator=generator))
            feats[b, :, start:start + width] = 0.0
    return feats


def freq_mask_(feats, max_width=3, generator=None):
    n_bins = feats.shape[1]
    for b in range(feats.shape[0]):
        width = int(torch.randint(1, max_width + 1, (1,), generator=generator))
        start = int(torch.randint(0, n_bins - width, (1,), generator=generator))
        feats[b, start:start + width, :] = 0.0
    return feats
