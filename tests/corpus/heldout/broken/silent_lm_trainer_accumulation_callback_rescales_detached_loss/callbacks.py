"""Trainer callbacks: each hook may observe the trainer and, for on_before_backward,
return a (possibly transformed) loss."""
import math


class GradientAccumulation:
    """Averages the loss over `steps` micro-batches and only lets the optimizer step on the
    last one of each group."""

    def __init__(self, steps):
        self.steps = steps

    def on_before_backward(self, trainer, loss):
        # rescale without keeping a second copy of the graph around
        return loss.detach().div(self.steps).requires_grad_(True)

    def should_step(self, trainer):
        return (trainer.micro_step + 1) % self.steps == 0


class PerplexityLogger:
    def __init__(self, every):
        self.every = every

    def on_before_backward(self, trainer, loss):
        if trainer.micro_step % self.every == 0:
            print(f"micro step {trainer.micro_step} loss {loss.item():.4f} "
                  f"ppl {math.exp(loss.item()):.2f}")
        return loss
