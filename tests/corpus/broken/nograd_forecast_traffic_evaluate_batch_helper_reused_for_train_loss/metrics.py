"""Evaluation helpers for the multi-horizon traffic-speed forecaster."""
import torch


def evaluate_batch(model, batch, horizon_weights):
    """Horizon-weighted MAE of one batch, plus the per-horizon MAE for the report."""
    history, future = batch
    with torch.no_grad():
        pred = model(history)
        abs_err = (pred - future).abs()
        loss = (abs_err.mean(0) * horizon_weights).sum() / horizon_weights.sum()
    return loss, abs_err.mean(0)


def validate(model, batches, horizon_weights):
    model.eval()
    total, per_horizon = 0.0, 0.0
    for batch in batches:
        loss, mae = evaluate_batch(model, batch, horizon_weights)
        total += loss.item()
        per_horizon = per_horizon + mae
    model.train()
    return total / len(batches), per_horizon / len(batches)
