"""Loss functions shared by the probabilistic forecasting experiments."""
import torch

QUANTILES = (0.1, 0.5, 0.9)


def quantile_loss(pred, target, quantiles=QUANTILES):
    """Mean pinball loss over every series, forecast step and quantile.

    pred: (batch, horizon, len(quantiles)); target: (batch, horizon).
    """
    q = torch.tensor(quantiles, dtype=pred.dtype)
    err = target.unsqueeze(-1) - pred
    return torch.maximum(q * err, (q - 1) * err).mean()
