"""Training telemetry for the retrieval models: per-tower gradient norms every few steps."""
import math

import torch


class TowerGradLogger:
    """Every `every` steps, backpropagates the step's loss and records the gradient norm of
    each named tower, so exploding user- or item-side gradients show up in the logs."""

    def __init__(self, towers, every=3):
        self.towers = towers
        self.every = every
        self.records = []

    def __call__(self, step, loss):
        if (step + 1) % self.every:
            return None
        loss.backward()
        norms = {}
        for name, module in self.towers.items():
            sq = sum(float(p.grad.pow(2).sum()) for p in module.parameters() if p.grad is not None)
            norms[name] = math.sqrt(sq)
        self.records.append((step, loss.item(), norms))
        return norms
