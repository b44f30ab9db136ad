"""Regression metrics shared by the training and evaluation scripts."""
import torch


class RegressionReport:
    """Collects predictions and targets; compute() gives MAE, RMSE and R^2 over all of them."""

    def __init__(self):
        self.preds, self.targets = [], []

    def update(self, pred, target):
        self.preds.append(pred)
        self.targets.append(target)

    def compute(self):
        pred, target = torch.cat(self.preds), torch.cat(self.targets)
        err = pred - target
        ss_res = (err ** 2).sum()
        ss_tot = ((target - target.mean()) ** 2).sum()
        return {"mae": err.abs().mean().item(), "rmse": ss_res.div(len(err)).sqrt().item(),
                "r2": (1 - ss_res / ss_tot).item()}

    def reset(self):
        self.preds.clear()
        self.targets.clear()
