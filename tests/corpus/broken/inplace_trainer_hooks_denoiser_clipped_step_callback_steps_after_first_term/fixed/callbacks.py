"""Project callbacks."""
import torch

from trainer import StepCallback, Callback


class GradNormLogger(Callback):
    """Records the gradient norm each loss term adds (grads accumulate across terms)."""

    def __init__(self):
        self.last = 0.0
        self.per_term = {}

    def on_after_backward(self, trainer, term):
        total = torch.sqrt(sum(p.grad.pow(2).sum() for p in trainer.model.parameters()
                               if p.grad is not None)).item()
        self.per_term[term] = total - self.last
        self.last = total

    def on_batch_end(self, trainer):
        self.last = 0.0


class ClippedStep(StepCallback):
    """Clip the gradient norm, then take the optimizer step."""

    def __init__(self, max_norm):
        self.max_norm = max_norm

    def on_batch_end(self, trainer):
        # every loss term has been backwarded by now
        torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), self.max_norm)
        trainer.optimizer.step()
