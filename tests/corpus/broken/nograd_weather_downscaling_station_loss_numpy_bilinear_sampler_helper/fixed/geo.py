"""Grid and station geometry for the downscaling run: stations sit at fractional
(row, col) positions of the fine grid."""
import numpy as np
import torch


def corner_weights(stations_rc):
    """Bilinear corner indices and offsets of every station inside its fine-grid cell."""
    r, c = stations_rc[:, 0], stations_rc[:, 1]
    r0, c0 = np.floor(r).astype(np.int64), np.floor(c).astype(np.int64)
    return r0, c0, r - r0, c - c0


def sample_at_stations(field, stations_rc):
    """Bilinear value of each fine-grid field (B, H, W) at every station: (B, S)."""
    r0, c0, dr, dc = corner_weights(stations_rc)
    r0, c0 = torch.from_numpy(r0), torch.from_numpy(c0)
    dr = torch.from_numpy(dr).to(field.dtype)
    dc = torch.from_numpy(dc).to(field.dtype)
    values = ((1 - dr) * (1 - dc) * field[:, r0, c0] + (1 - dr) * dc * field[:, r0, c0 + 1]
              + dr * (1 - dc) * field[:, r0 + 1, c0] + dr * dc * field[:, r0 + 1, c0 + 1])
    return values
