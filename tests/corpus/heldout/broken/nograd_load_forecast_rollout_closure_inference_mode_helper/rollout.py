"""Autoregressive multi-step forecasting helpers for the hourly load model."""
import torch


def make_multi_step(model, horizon):
    """Returns forecast(window) -> (batch, horizon): each one-step prediction is fed back
    into the input window for the next step."""

    def forecast(window):
        preds = []
        with torch.inference_mode():
            for _ in range(horizon):
                nxt = model(window)
                preds.append(nxt)
                window = torch.cat([window[:, 1:], nxt], dim=1)
        return torch.cat(preds, dim=1)

    return forecast


def smape(pred, target, eps=1e-6):
    num = (pred - target).abs()
    den = (pred.abs() + target.abs()).clamp_min(eps)
    return (2.0 * num / den).mean().item()
