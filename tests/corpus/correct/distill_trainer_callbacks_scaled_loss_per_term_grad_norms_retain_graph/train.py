"""Logit distillation with a Trainer and callbacks. A loss guard scales (not replaces)
spiking losses, a probe measures how hard the KD and CE terms pull on the student's head
with autograd.grad(retain_graph=True) before the real backward, and a logger keeps
exponential moving averages as floats."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, N_CLASSES, T, ALPHA = 16, 5, 4.0, 0.8


class LossGuard:
    def __init__(self, cap=3.0):
        self.cap = cap

    def on_loss(self, trainer, loss, terms):
        value = loss.item()
        return loss * (self.cap / value) if value > self.cap else loss


class GradProbe:
    """Norm of each loss term's gradient on the student's output layer."""

    def on_loss(self, trainer, loss, terms):
        head = trainer.student[-1].weight
        for name, term in terms.items():
            (g,) = torch.autograd.grad(term, head, retain_graph=True)
            trainer.logs[f"|g_{name}|"] = g.norm().item()
        return loss


class EMALogger:
    def __init__(self, decay=0.8):
        self.decay, self.ema = decay, None

    def on_loss(self, trainer, loss, terms):
        v = loss.item()
        self.ema = v if self.ema is None else self.decay * self.ema + (1 - self.decay) * v
        trainer.logs["loss_ema"] = self.ema
        return loss


class Trainer:
    def __init__(self, teacher, student, callbacks):
        self.teacher, self.student, self.callbacks = teacher.eval(), student, callbacks
        self.optimizer = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
        self.logs = {}

    def step(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        s_logits = self.student(x)
        terms = {
            "kd": F.kl_div(F.log_softmax(s_logits / T, 1), F.log_softmax(t_logits / T, 1),
                           reduction="batchmean", log_target=True) * T * T,
            "ce": F.cross_entropy(s_logits, y),
        }
        loss = ALPHA * terms["kd"] + (1 - ALPHA) * terms["ce"]
        for cb in self.callbacks:
            loss = cb.on_loss(self, loss, terms)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {k: round(v, 4) for k, v in self.logs.items()}


teacher = nn.Sequential(nn.Linear(N_FEATURES, 128), nn.ReLU(), nn.Linear(128, N_CLASSES))
student = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ReLU(), nn.Linear(16, N_CLASSES))
trainer = Trainer(teacher, student, [LossGuard(), GradProbe(), EMALogger()])
centers = torch.randn(N_CLASSES, N_FEATURES)
for step in range(6):
    y = torch.randint(0, N_CLASSES, (48,))
    x = centers[y] + 0.7 * torch.randn(48, N_FEATURES)
    print(f"step {step}", trainer.step(x, y))
print(f"student checksum {sum(p.sum().item() for p in student.parameters()):.4f}")
