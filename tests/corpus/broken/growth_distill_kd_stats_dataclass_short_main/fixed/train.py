"""Knowledge distillation of a wide MLP teacher into a small student on synthetic tabular
features: cross-entropy on the labels plus temperature-scaled KL to the teacher's soft
targets. A small dataclass keeps the running loss averages reported by main()."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, N_CLASSES, BATCH, STEPS, TEMP, ALPHA = 12, 4, 32, 10, 3.0, 0.7


@dataclass
class DistillStats:
    kd_sum: float = 0.0
    ce_sum: float = 0.0
    seen: int = 0

    def add(self, kd, ce, n):
        self.kd_sum += kd.item() * n
        self.ce_sum += ce.item() * n
        self.seen += n

    def summary(self):
        return f"kd {self.kd_sum / self.seen:.4f} ce {self.ce_sum / self.seen:.4f}"


def make_batch(proj):
    x = torch.randn(BATCH, N_FEATURES)
    return x, (x @ proj).argmax(dim=1)


def distill_loss(student_logits, teacher_logits, labels):
    kd = F.kl_div(F.log_softmax(student_logits / TEMP, dim=1),
                  F.softmax(teacher_logits / TEMP, dim=1), reduction="batchmean") * TEMP ** 2
    ce = F.cross_entropy(student_logits, labels)
    return ALPHA * kd + (1 - ALPHA) * ce, kd, ce


def main():
    torch.manual_seed(0)
    proj = torch.randn(N_FEATURES, N_CLASSES)
    teacher = nn.Sequential(nn.Linear(N_FEATURES, 128), nn.ReLU(), nn.Linear(128, N_CLASSES))
    teacher.eval().requires_grad_(False)
    student = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ReLU(), nn.Linear(16, N_CLASSES))
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
    stats = DistillStats()
    for step in range(STEPS):
        x, labels = make_batch(proj)
        with torch.no_grad():
            teacher_logits = teacher(x)
        loss, kd, ce = distill_loss(student(x), teacher_logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stats.add(kd, ce, x.shape[0])
        if step % 5 == 4:
            print(f"step {step} loss {loss.item():.4f} {stats.summary()}")
    return stats


if __name__ == "__main__":
    final = main()
    print("final", final.summary())
