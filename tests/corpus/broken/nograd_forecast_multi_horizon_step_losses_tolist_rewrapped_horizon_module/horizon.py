"""Lead-time weighting for the multi-horizon forecaster.

Errors at short lead times matter more to the dispatch team, so the
per-step MAE is weighted with a geometric decay before averaging.
"""
import torch


def lead_time_weights(horizon, decay=0.8):
    return torch.tensor([decay ** k for k in range(horizon)])


def weighted_horizon_mae(pred, target, weights):
    err = (pred - target).abs()
    # one MAE per lead time, kept as a list so it can be logged per step too
    step_losses = torch.tensor(err.mean(dim=0).tolist())
    return (weights * step_losses).sum() / weights.sum(), step_losses
