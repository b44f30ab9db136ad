"""Response + feature (hint) distillation from a wide ECG teacher into a small student.
The teacher's penultimate features are wider than the student's, so a learned connector
projects them down to the student's width before the hint loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Distiller:
    def __init__(self, teacher, student, t_dim, s_dim, temperature=3.0, alpha=0.5, beta=0.5):
        self.teacher = teacher.eval().requires_grad_(False)
        self.student = student
        self.connector = nn.Linear(t_dim, s_dim)
        self.T, self.alpha, self.beta = temperature, alpha, beta

    def trainable_parameters(self):
        return [*self.student.parameters(), *self.connector.parameters()]

    def teacher_targets(self, x):
        with torch.no_grad():
            t_logits, t_feats = self.teacher(x, return_features=True)
        t_hint = self.connector(t_feats)
        return t_logits, t_hint

    def loss(self, x, y):
        t_logits, t_hint = self.teacher_targets(x)
        s_logits, s_feats = self.student(x, return_features=True)
        ce = F.cross_entropy(s_logits, y)
        kd = F.kl_div(F.log_softmax(s_logits / self.T, -1), F.softmax(t_logits / self.T, -1),
                      reduction="batchmean") * self.T ** 2
        hint = F.mse_loss(s_feats, t_hint)
        return (1 - self.alpha) * ce + self.alpha * kd + self.beta * hint, ce
