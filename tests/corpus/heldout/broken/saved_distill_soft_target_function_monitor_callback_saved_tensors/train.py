"""Distil a frozen 2-hidden-layer teacher into a small student with the hand-written soft-target
loss of kd_ops.py, in a Trainer that calls callbacks around backward."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import GradNormLogger, KDMonitor
from kd_ops import soft_target_ce

IN_DIM, N_CLASSES, TEMPERATURE, ALPHA = 16, 6, 3.0, 0.7


class Trainer:
    def __init__(self, teacher, student, callbacks):
        self.teacher, self.student = teacher.eval(), student
        self.optimizer = torch.optim.Adam(student.parameters(), lr=5e-3)
        self.callbacks = callbacks

    def training_step(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        s_logits = self.student(x)
        kd = soft_target_ce(s_logits, t_logits, TEMPERATURE)
        ce = F.cross_entropy(s_logits, y)
        loss = ALPHA * TEMPERATURE ** 2 * kd + (1 - ALPHA) * ce
        return {"loss": loss, "kd": kd, "ce": ce}

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for x, y in batches:
                outputs = self.training_step(x, y)
                self.optimizer.zero_grad()
                for cb in self.callbacks:
                    cb.on_before_backward(self, outputs)
                outputs["loss"].backward()
                for cb in self.callbacks:
                    cb.on_after_backward(self, outputs)
                self.optimizer.step()
            print(f"epoch {epoch}: loss {outputs['loss'].item():.4f} kd {outputs['kd'].item():.4f} "
                  f"ce {outputs['ce'].item():.4f}")
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def make_batches(n_batches=3, batch=24):
    w = torch.randn(IN_DIM, N_CLASSES)
    out = []
    for _ in range(n_batches):
        x = torch.randn(batch, IN_DIM)
        out.append((x, (x @ w).argmax(1)))
    return out


torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(IN_DIM, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                        nn.Linear(64, N_CLASSES))
student = nn.Sequential(nn.Linear(IN_DIM, 16), nn.ReLU(), nn.Linear(16, N_CLASSES))
trainer = Trainer(teacher, student, callbacks=[GradNormLogger(), KDMonitor()])
trainer.fit(make_batches(), epochs=2)
