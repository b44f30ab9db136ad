"""Callbacks for the multi-task trainer: Dynamic Weight Average task weighting and a logger."""
import math

import torch


class DynamicWeightAverage:
    """DWA (Liu et al., 2019): a task whose loss fell slowly over the last two steps gets a
    larger weight for the next step. Weights are plain floats handed to the trainer."""

    def __init__(self, n_tasks, temperature=2.0):
        self.n_tasks, self.temperature = n_tasks, temperature
        self.history = []

    def on_train_batch_end(self, trainer, task_losses):
        self.history.append(torch.stack(task_losses))
        if len(self.history) < 2:
            return
        prev, last = self.history[-2].tolist(), self.history[-1].tolist()
        ratios = [l / max(p, 1e-8) for l, p in zip(last, prev)]
        exps = [math.exp(r / self.temperature) for r in ratios]
        trainer.task_weights = [self.n_tasks * e / sum(exps) for e in exps]


class StepLogger:
    def on_train_batch_end(self, trainer, task_losses):
        parts = "  ".join(f"{name} {l.item():.4f} (w {w:.2f})"
                          for name, l, w in zip(trainer.task_names, task_losses, trainer.task_weights))
        print(f"step {trainer.step}  {parts}")
