"""Callbacks for trainer.Trainer."""
import torch

from trainer import Callback


class SAMCallback(Callback):
    """Sharpness-Aware Minimization: replace the gradient by the one taken at the worst-case
    weights w + rho * g / ||g|| before the optimizer steps."""

    def __init__(self, rho=0.05):
        self.rho = rho

    def on_after_backward(self, trainer):
        params = [p for p in trainer.model.parameters() if p.grad is not None]
        grad_norm = torch.norm(torch.stack([p.grad.norm() for p in params]))
        with torch.no_grad():
            eps = [self.rho * p.grad / (grad_norm + 1e-12) for p in params]
            for p, e in zip(params, eps):
                p.add_(e)
        trainer.optimizer.zero_grad()
        x, y = trainer.batch
        trainer.loss_fn(trainer.model(x), y).backward()
        with torch.no_grad():
            for p, e in zip(params, eps):
                p.sub_(e)


class PrintLoss(Callback):
    def on_batch_end(self, trainer):
        print(f"step {trainer.step}: loss {trainer.loss.item():.4f}")
