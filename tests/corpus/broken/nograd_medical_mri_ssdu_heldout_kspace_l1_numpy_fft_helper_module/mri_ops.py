"""k-space helpers shared by the simulation pipeline and the self-supervised loss.

Written against NumPy first, like the scanner-side tools the lab already had.
"""
import numpy as np
import torch


def fft2c(x):
    """Centred, orthonormal 2-D FFT over the last two axes. Takes a tensor or an array."""
    if torch.is_tensor(x):
        x = x.detach().cpu().numpy()
    shifted = np.fft.ifftshift(x, axes=(-2, -1))
    return np.fft.fftshift(np.fft.fft2(shifted, norm="ortho"), axes=(-2, -1))


def ifft2c(kspace):
    shifted = np.fft.ifftshift(np.asarray(kspace), axes=(-2, -1))
    return np.fft.fftshift(np.fft.ifft2(shifted, norm="ortho"), axes=(-2, -1))


def zero_filled(kspace, mask):
    """Image from the sampled phase-encode lines only (real part), as a float tensor."""
    return torch.from_numpy(np.ascontiguousarray(ifft2c(kspace * mask).real)).float()


def kspace_l1(recon, kspace, loss_mask):
    """SSDU loss: L1 between the reconstruction's k-space and the held-out measured lines."""
    pred_k = fft2c(recon[:, 0])
    err = np.abs(pred_k - kspace) * loss_mask
    per_slice = loss_mask.sum() * kspace.shape[-2]
    return torch.tensor(err.sum() / (per_slice * len(recon)), dtype=torch.float32)
