"""Which lags does the forecaster look at? Gradient saliency of the training loss with
respect to the input window, averaged over the batch and the input variables."""
import torch


def lag_saliency(loss, window, top=3):
    (grad,) = torch.autograd.grad(loss, window)
    per_lag = (grad * window).abs().mean(dim=(0, 1))  # window: (batch, vars, lags)
    lags = window.shape[-1] - per_lag.topk(top).indices  # 1 = most recent hour
    return sorted(lags.tolist())
