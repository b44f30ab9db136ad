"""Evaluation metrics for the pricing models (NumPy, mirrors sklearn.metrics)."""
import numpy as np


def mean_tweedie_deviance(y_true, y_pred, power=1.5, sample_weight=None):
    """Mean Tweedie deviance for 1 < power < 2 (compound Poisson-gamma)."""
    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    dev = 2 * (np.power(np.maximum(y_true, 0), 2 - power) / ((1 - power) * (2 - power))
               - y_true * np.power(y_pred, 1 - power) / (1 - power)
               + np.power(y_pred, 2 - power) / (2 - power))
    return float(np.average(dev, weights=sample_weight))


def gini(y_true, y_pred):
    order = np.argsort(-np.asarray(y_pred))
    cum = np.cumsum(np.asarray(y_true)[order]) / max(np.sum(y_true), 1e-12)
    n = len(cum)
    return float(np.sum(cum - np.arange(1, n + 1) / n) / n)
