"""Training telemetry for the retrieval models: per-tower gradient norms every few steps."""
import math

import torch


class TowerGradLogger:
    """Every `every` steps, records the gradient norm of each named tower from the gradients
    the trainer's backward left, so exploding user- or item-side gradients show up in the logs.
    Call it after loss.backward() and before optimizer.step()."""

    def __init__(self, towers, every=3):
        self.towers = towers
        self.every = every
        self.records = []

    def __call__(self, step, loss):
        if (step + 1) % self.every:
            return None
        norms = {}
        for name, module in self.towers.items():
            sq = sum(float(p.grad.pow(2).sum()) for p in module.parameters() if p.grad is not None)
            norms[name] = math.sqrt(sq)
        self.records.append((step, loss.item(), norms))
        return norms
