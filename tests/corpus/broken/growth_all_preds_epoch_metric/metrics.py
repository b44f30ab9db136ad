"""Epoch-level metrics computed from the stored predictions of one pass over the data."""
import torch


def binary_metrics(logits, targets, threshold=0.5):
    pred = (torch.sigmoid(logits) > threshold).float()
    tp = (pred * targets).sum()
    precision = tp / pred.sum().clamp(min=1)
    recall = tp / targets.sum().clamp(min=1)
    accuracy = (pred == targets).float().mean()
    return {"acc": accuracy.item(), "precision": precision.item(), "recall": recall.item()}
