"""Cheap attribution for the tabular models: which numeric inputs drive the training loss."""
import torch


def feature_saliency(loss, features, names):
    """Mean |d loss / d x_j| over the batch for every numeric column.

    Uses backward(inputs=...) so that only `features.grad` is filled in and the model's
    parameter gradients are left alone for the optimizer."""
    features.grad = None
    loss.backward(inputs=[features])
    scores = features.grad.abs().mean(dim=0)
    return {name: round(score.item(), 4) for name, score in zip(names, scores)}
