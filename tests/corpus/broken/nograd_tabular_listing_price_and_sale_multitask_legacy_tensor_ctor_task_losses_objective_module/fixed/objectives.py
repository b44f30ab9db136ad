"""Weighted multi-task objective for the listing model: log-price regression plus
"sold within 30 days" classification."""
import torch
import torch.nn.functional as F


class ListingObjective:
    def __init__(self, price_weight=1.0, sold_weight=0.5):
        self.weights = torch.tensor([price_weight, sold_weight])

    def __call__(self, outputs, targets):
        price_loss = F.mse_loss(outputs["log_price"], targets["log_price"])
        sold_loss = F.binary_cross_entropy_with_logits(outputs["sold"], targets["sold"])
        per_task = torch.stack([price_loss, sold_loss])
        return (self.weights * per_task).sum(), per_task
