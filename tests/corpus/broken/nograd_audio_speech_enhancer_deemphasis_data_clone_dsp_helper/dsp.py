"""Signal-processing helpers for the enhancement front end."""
import torch


def preemphasis(x, coef=0.85):
    """y[t] = x[t] - coef * x[t-1] over the last axis."""
    return torch.cat([x[..., :1], x[..., 1:] - coef * x[..., :-1]], dim=-1)


def deemphasis(x, coef=0.85):
    """Inverse of preemphasis: y[t] = x[t] + coef * y[t-1].

    The recursion writes y in place, one sample at a time; on a tensor autograd tracks that
    raised "modified by an inplace operation", so it runs on the raw storage.
    """
    y = x.data.clone()
    for t in range(1, y.shape[-1]):
        y[..., t] += coef * y[..., t - 1]
    return y


def stft_mag(x, n_fft):
    window = torch.hann_window(n_fft)
    spec = torch.stft(x, n_fft, hop_length=n_fft // 4, window=window, return_complex=True)
    return spec.abs().clamp(min=1e-5)
