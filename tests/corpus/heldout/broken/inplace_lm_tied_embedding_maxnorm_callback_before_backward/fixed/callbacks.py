"""Callbacks for LMTrainer. Hook points, in the order the trainer calls them:
on_batch_start, on_before_backward(loss), on_before_optimizer_step, on_batch_end."""
import math

import torch


class Callback:
    def on_batch_start(self, trainer, step):
        pass

    def on_before_backward(self, trainer, loss):
        pass

    def on_before_optimizer_step(self, trainer):
        pass

    def on_batch_end(self, trainer, step, loss):
        pass


class EmbeddingMaxNorm(Callback):
    """Keeps every row of the (tied) embedding matrix inside an L2 ball of radius max_norm."""

    def __init__(self, max_norm=1.0):
        self.max_norm = max_norm

    def on_batch_end(self, trainer, step, loss):
        weight = trainer.model.embed.weight
        with torch.no_grad():
            norms = weight.norm(dim=1, keepdim=True)
            weight.mul_(torch.clamp(self.max_norm / (norms + 1e-7), max=1.0))


class GradClip(Callback):
    def __init__(self, max_norm=1.0):
        self.max_norm = max_norm

    def on_before_optimizer_step(self, trainer):
        torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), self.max_norm)


class PerplexityLogger(Callback):
    def on_batch_end(self, trainer, step, loss):
        print(f"step {step}  loss {loss:.4f}  ppl {math.exp(loss):.2f}")
