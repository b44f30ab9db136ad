"""Training diagnostics for the mask-based enhancer.

The model only returns the enhanced magnitude; the mask is recovered from the graph (the
sigmoid feeding enhanced = noisy * mask) instead of changing the model's outputs.
"""
import torch


class MaskMonitor:
    def __init__(self, floor=0.05, ceil=0.95):
        self.floor, self.ceil = floor, ceil
        self.rows = []

    def log(self, step, enhanced):
        mask = enhanced.grad_fn.next_functions[1][0]._saved_result
        row = {
            "step": step,
            "mean": mask.mean().item(),
            "closed": (mask < self.floor).float().mean().item(),
            "open": (mask > self.ceil).float().mean().item(),
        }
        self.rows.append(row)
        return row
