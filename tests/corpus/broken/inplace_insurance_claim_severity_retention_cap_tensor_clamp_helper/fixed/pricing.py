"""Helpers shared by the pricing models."""
import torch

RETENTION = 20.0  # thousands; the part of a claim above this is ceded to the reinsurer


def cap_at_retention(pred, claims, retention=RETENTION):
    """The insurer keeps claims only up to the retention. When a batch contains ceded
    claims, cap targets and predicted severities alike so the loss compares like with like."""
    ceded = claims > retention
    if ceded.any():
        pred = pred.clamp(max=retention)
        claims = claims.clamp(max=retention)
    return pred, claims


def gamma_deviance(pred, claims):
    """Mean Gamma deviance (log link), the usual severity loss."""
    ratio = claims / pred
    return 2 * (ratio - torch.log(ratio) - 1).mean()
