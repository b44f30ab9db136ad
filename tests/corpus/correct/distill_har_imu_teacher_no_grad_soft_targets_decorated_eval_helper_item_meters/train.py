"""Human-activity recognition from 3-axis wrist accelerometer windows, compressed by
knowledge distillation: a GRU teacher is trained first, then frozen, and a small 1-D CNN
student learns from the teacher's temperature-softened predictions (computed under
torch.no_grad()) plus the hard labels. Evaluation goes through an @torch.no_grad() helper
between steps, and the meters only ever hold Python floats."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from evaluation import AverageMeter, evaluate

N_CLASSES, STEPS = 4, 32          # still, walk, run, stairs
T, ALPHA = 3.0, 0.7


def imu_windows(n, gen):
    labels = torch.randint(0, N_CLASSES, (n,), generator=gen)
    t = torch.arange(STEPS) / 16.0
    freq = torch.tensor([0.0, 1.8, 3.0, 1.2])[labels][:, None]
    amp = torch.tensor([0.05, 0.6, 1.2, 0.8])[labels][:, None]
    tilt = torch.tensor([0.0, 0.0, 0.1, 0.5])[labels][:, None]
    base = amp * torch.sin(2 * math.pi * freq * t)
    x = torch.stack([base, 0.5 * base + tilt, 1.0 + 0.3 * base], dim=1)
    return x + 0.1 * torch.randn(n, 3, STEPS, generator=gen), labels


class GRUTeacher(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.gru = nn.GRU(3, hidden, batch_first=True)
        self.out = nn.Linear(hidden, N_CLASSES)

    def forward(self, x):
        _, h = self.gru(x.transpose(1, 2))
        return self.out(h[-1])


class CNNStudent(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(3, ch, 5, padding=2), nn.ReLU(),
                                 nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(ch, N_CLASSES))

    def forward(self, x):
        return self.net(x)


def kd_loss(student_logits, teacher_logits, labels):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=1),
                    F.softmax(teacher_logits / T, dim=1), reduction="batchmean") * T * T
    return ALPHA * soft + (1 - ALPHA) * F.cross_entropy(student_logits, labels)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    batches = [imu_windows(16, gen) for _ in range(3)]
    val_x, val_y = imu_windows(32, gen)

    teacher = GRUTeacher()
    t_opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
    for step, (x, y) in enumerate(batches):
        loss = F.cross_entropy(teacher(x), y)
        t_opt.zero_grad()
        loss.backward()
        t_opt.step()
        print(f"teacher step {step} loss {loss.item():.4f}")
    teacher.eval().requires_grad_(False)
    acc, _ = evaluate(teacher, val_x, val_y, N_CLASSES)
    print(f"teacher val acc {acc:.3f}")

    student = CNNStudent()
    s_opt = torch.optim.Adam(student.parameters(), lr=1e-2)
    for epoch in range(2):
        meter = AverageMeter()
        for x, y in batches:
            with torch.no_grad():
                teacher_logits = teacher(x)
            student_logits = student(x)
            loss = kd_loss(student_logits, teacher_logits, y)
            s_opt.zero_grad()
            loss.backward()
            s_opt.step()
            meter.update(loss.item(), y.size(0))
            acc, recalls = evaluate(student, val_x, val_y, N_CLASSES)
        print(f"epoch {epoch} kd loss {meter.avg:.4f} val acc {acc:.3f} "
              f"min recall {recalls.min().item():.3f}")
    print(f"student checksum {sum(p.sum().item() for p in student.parameters()):.4f}")
    print(f"teacher checksum {sum(p.sum().item() for p in teacher.parameters()):.4f}")


if __name__ == "__main__":
    main()
