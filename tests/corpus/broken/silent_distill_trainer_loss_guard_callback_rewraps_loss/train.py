"""Knowledge distillation of a wide MLP teacher into a small student on a synthetic
7-class sensor-feature task. The DistillTrainer runs callbacks: a loss guard that caps
loss spikes (the first batches after warm-up used to blow up) and a console logger."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, N_CLASSES, TEMPERATURE, ALPHA = 20, 7, 3.0, 0.7


class LossGuard:
    """Refuses non-finite losses and caps spikes at `cap`."""

    def __init__(self, cap=5.0):
        self.cap = cap
        self.capped = 0

    def on_loss(self, trainer, loss):
        value = loss.item()
        if not math.isfinite(value):
            raise FloatingPointError(f"non-finite loss at step {trainer.step}")
        if value > self.cap:
            self.capped += 1
        return torch.tensor(min(value, self.cap), requires_grad=True)

    def on_step_end(self, trainer, logs):
        pass


class ConsoleLogger:
    def on_loss(self, trainer, loss):
        return loss

    def on_step_end(self, trainer, logs):
        print(f"step {trainer.step} kd {logs['kd']:.4f} ce {logs['ce']:.4f} "
              f"total {logs['total']:.4f}")


class DistillTrainer:
    def __init__(self, teacher, student, callbacks):
        self.teacher = teacher.eval().requires_grad_(False)
        self.student = student
        self.callbacks = callbacks
        self.optimizer = torch.optim.AdamW(self.student.parameters(), lr=2e-3)
        self.step = 0

    def train_step(self, x, y):
        with torch.no_grad():
            soft_targets = F.softmax(self.teacher(x) / TEMPERATURE, dim=1)
        logits = self.student(x)
        kd = F.kl_div(F.log_softmax(logits / TEMPERATURE, dim=1), soft_targets,
                      reduction="batchmean") * TEMPERATURE ** 2
        ce = F.cross_entropy(logits, y)
        loss = ALPHA * kd + (1 - ALPHA) * ce
        for cb in self.callbacks:
            loss = cb.on_loss(self, loss)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.step += 1
        logs = {"kd": kd.item(), "ce": ce.item(), "total": loss.item()}
        for cb in self.callbacks:
            cb.on_step_end(self, logs)

    def fit(self, batches, epochs):
        self.student.train()
        for _ in range(epochs):
            for x, y in batches:
                self.train_step(x, y)


def make_batches(n_batches=3, batch=64):
    centers = 2.0 * torch.randn(N_CLASSES, N_FEATURES)
    out = []
    for _ in range(n_batches):
        y = torch.randint(0, N_CLASSES, (batch,))
        out.append((centers[y] + torch.randn(batch, N_FEATURES), y))
    return out


teacher = nn.Sequential(nn.Linear(N_FEATURES, 256), nn.ReLU(), nn.Linear(256, N_CLASSES))
student = nn.Sequential(nn.Linear(N_FEATURES, 24), nn.ReLU(), nn.Linear(24, N_CLASSES))
guard = LossGuard(cap=5.0)
trainer = DistillTrainer(teacher, student, callbacks=[guard, ConsoleLogger()])
trainer.fit(make_batches(), epochs=2)
print(f"capped {guard.capped} steps; student checksum "
      f"{sum(p.sum().item() for p in student.parameters()):.4f}")
