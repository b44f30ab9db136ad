"""Loss functions for the waveform enhancer."""
import torch


def si_snr(est, ref, eps=1e-8):
    """Scale-invariant signal-to-noise ratio in dB, per item (Luo & Mesgarani, Conv-TasNet).

    est, ref: (B, T) waveforms."""
    # zero-mean both signals
    est = est - est.mean(dim=-1, keepdim=True)
    ref = ref - ref.mean(dim=-1, keepdim=True)
    proj = (est * ref).sum(dim=-1, keepdim=True) * ref / (ref.pow(2).sum(dim=-1, keepdim=True) + eps)
    noise = est - proj
    return 10 * torch.log10(proj.pow(2).sum(dim=-1) / (noise.pow(2).sum(dim=-1) + eps) + eps)


def neg_si_snr(est, ref):
    return -si_snr(est, ref).mean()
