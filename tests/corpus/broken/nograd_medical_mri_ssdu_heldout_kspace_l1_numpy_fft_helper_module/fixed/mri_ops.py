"""k-space helpers shared by the simulation pipeline and the self-supervised loss.

Written against NumPy first, like the scanner-side tools the lab already had.
"""
import torch


def fft2c(x):
    """Centred, orthonormal 2-D FFT over the last two axes. Takes a tensor or an array."""
    x = torch.as_tensor(x)
    shifted = torch.fft.ifftshift(x, dim=(-2, -1))
    return torch.fft.fftshift(torch.fft.fft2(shifted, norm="ortho"), dim=(-2, -1))


def ifft2c(kspace):
    shifted = torch.fft.ifftshift(torch.as_tensor(kspace), dim=(-2, -1))
    return torch.fft.fftshift(torch.fft.ifft2(shifted, norm="ortho"), dim=(-2, -1))


def zero_filled(kspace, mask):
    """Image from the sampled phase-encode lines only (real part), as a float tensor."""
    return ifft2c(kspace * torch.as_tensor(mask)).real.float().contiguous()


def kspace_l1(recon, kspace, loss_mask):
    """SSDU loss: L1 between the reconstruction's k-space and the held-out measured lines."""
    loss_mask = torch.as_tensor(loss_mask)
    pred_k = fft2c(recon[:, 0])
    err = (pred_k - kspace).abs() * loss_mask
    per_slice = loss_mask.sum() * kspace.shape[-2]
    return err.sum() / (per_slice * len(recon))
