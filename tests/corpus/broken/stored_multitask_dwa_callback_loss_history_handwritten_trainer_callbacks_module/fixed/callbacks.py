"""Callbacks for the small in-house Trainer."""
import torch


class Callback:
    def on_fit_start(self, trainer):
        pass

    def on_batch_end(self, trainer, task_losses):
        pass


class DynamicWeightAverage(Callback):
    """Dynamic Weight Average (Liu et al., 2019): a task whose loss fell
    less over the last two steps gets a larger weight."""

    def __init__(self, tasks, temperature=2.0):
        self.tasks = list(tasks)
        self.temperature = temperature
        self.history = []

    def on_fit_start(self, trainer):
        self.history.clear()
        trainer.task_weights = {t: 1.0 for t in self.tasks}

    def on_batch_end(self, trainer, task_losses):
        self.history.append({t: v.detach() for t, v in task_losses.items()})
        if len(self.history) < 2:
            return
        prev, prev2 = self.history[-1], self.history[-2]
        ratios = torch.stack([prev[t] / prev2[t] for t in self.tasks])
        weights = len(self.tasks) * torch.softmax(ratios / self.temperature, dim=0)
        trainer.task_weights = dict(zip(self.tasks, weights))


class PrintProgress(Callback):
    def on_batch_end(self, trainer, task_losses):
        parts = " ".join(f"{t}={v.item():.4f}" for t, v in task_losses.items())
        print(f"step {trainer.global_step} {parts}")
