"""Semi-supervised image classification with a callback-driven trainer: a mean-teacher
consistency callback adds its term to the trainer's loss, a gradient-norm monitor reads the
gradient of that loss with torch.autograd.grad before the trainer's own backward, and the
teacher is an exponential moving average of the student, updated after every step."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Callback:
    def before_backward(self, trainer):
        pass

    def after_step(self, trainer):
        pass


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
        self.step_count = 0

    def fit(self, labelled, unlabelled, epochs):
        for self.epoch in range(epochs):
            for (x, y), self.x_unlabelled in zip(labelled, unlabelled):
                self.optimizer.zero_grad()
                self.logits = self.model(x)
                self.loss = F.cross_entropy(self.logits, y)
                for cb in self.callbacks:
                    cb.before_backward(self)
                self.loss.backward()
                self.optimizer.step()
                self.step_count += 1
                for cb in self.callbacks:
                    cb.after_step(self)


class MeanTeacher(Callback):
    def __init__(self, student, decay=0.9, weight=1.0):
        self.teacher = copy.deepcopy(student).requires_grad_(False)
        self.decay, self.weight = decay, weight

    def before_backward(self, trainer):
        noisy = trainer.x_unlabelled + 0.1 * torch.randn_like(trainer.x_unlabelled)
        with torch.no_grad():
            target = self.teacher(noisy).softmax(-1)
        student = trainer.model(trainer.x_unlabelled).softmax(-1)
        trainer.loss = trainer.loss + self.weight * F.mse_loss(student, target)

    @torch.no_grad()
    def after_step(self, trainer):
        for t, s in zip(self.teacher.parameters(), trainer.model.parameters()):
            t.mul_(self.decay).add_(s, alpha=1 - self.decay)
        for t, s in zip(self.teacher.buffers(), trainer.model.buffers()):
            t.copy_(s)


class GradNormMonitor(Callback):
    def __init__(self):
        self.norms = []

    def before_backward(self, trainer):
        params = [p for p in trainer.model.parameters() if p.requires_grad]
        grads = torch.autograd.grad(trainer.loss, params, retain_graph=True)
        self.norms.append(torch.sqrt(sum(g.pow(2).sum() for g in grads)).item())

    def after_step(self, trainer):
        print(f"epoch {trainer.epoch} step {trainer.step_count} loss {trainer.loss.item():.4f} "
              f"grad norm {self.norms[-1]:.4f}")


torch.manual_seed(11)
protos = torch.randn(3, 2, 6, 6)
labelled, unlabelled = [], []
for _ in range(3):
    y = torch.randint(0, 3, (12,))
    labelled.append((protos[y] + 0.6 * torch.randn(12, 2, 6, 6), y))
    unlabelled.append(protos[torch.randint(0, 3, (24,))] + 0.6 * torch.randn(24, 2, 6, 6))

student = nn.Sequential(nn.Conv2d(2, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(),
                        nn.Linear(8 * 4 * 4, 3))
mean_teacher = MeanTeacher(student)
trainer = Trainer(student, torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9),
                  callbacks=[mean_teacher, GradNormMonitor()])
trainer.fit(labelled, unlabelled, epochs=2)
print(f"student checksum {sum(p.sum().item() for p in student.parameters()):.6f}")
print(f"teacher checksum {sum(p.sum().item() for p in mean_teacher.teacher.parameters()):.6f}")
