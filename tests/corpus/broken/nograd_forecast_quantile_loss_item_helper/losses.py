"""Loss functions shared by the probabilistic forecasting experiments."""
import torch

QUANTILES = (0.1, 0.5, 0.9)


def quantile_loss(pred, target, quantiles=QUANTILES):
    """Mean pinball loss over every series, forecast step and quantile.

    pred: (batch, horizon, len(quantiles)); target: (batch, horizon).
    """
    total, count = 0.0, 0
    for b in range(pred.size(0)):
        for h in range(pred.size(1)):
            y = target[b, h].item()
            for k, q in enumerate(quantiles):
                err = y - pred[b, h, k].item()
                total += max(q * err, (q - 1) * err)
                count += 1
    return torch.tensor(total / count)
