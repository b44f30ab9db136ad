"""Knowledge distillation of a wide MLP teacher into a small student on a synthetic
10-class "spiral arms" problem, with a learnable distillation temperature."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, DIM = 10, 6


def spiral_batch(n):
    y = torch.randint(0, N_CLASSES, (n,))
    r = torch.rand(n) * 2 + 0.5
    angle = y.float() * (2 * math.pi / N_CLASSES) + r
    x = torch.stack([r * torch.cos(angle), r * torch.sin(angle)], 1)
    return torch.cat([x, 0.1 * torch.randn(n, DIM - 2)], 1), y


def make_teacher():
    teacher = nn.Sequential(nn.Linear(DIM, 128), nn.ReLU(), nn.Linear(128, N_CLASSES))
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
    for _ in range(30):
        x, y = spiral_batch(128)
        opt.zero_grad()
        F.cross_entropy(teacher(x), y).backward()
        opt.step()
    return teacher.eval().requires_grad_(False)


class DistillTrainer:
    def __init__(self, teacher, student, init_temp=4.0, alpha=0.5):
        self.teacher, self.student, self.alpha = teacher, student, alpha
        self.log_temp = nn.Parameter(torch.tensor(math.log(init_temp)))
        self.temperature = self.log_temp.exp().clamp(1.0, 10.0)
        self.optimizer = torch.optim.Adam(
            [{"params": student.parameters()}, {"params": [self.log_temp], "lr": 1e-2}], lr=3e-3)

    def kd_loss(self, s_logits, t_logits):
        T = self.temperature
        return F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                        reduction="batchmean") * T * T

    def train_step(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        s_logits = self.student(x)
        loss = (1 - self.alpha) * F.cross_entropy(s_logits, y) \
            + self.alpha * self.kd_loss(s_logits, t_logits)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, steps):
        for step in range(steps):
            x, y = spiral_batch(64)
            loss = self.train_step(x, y)
            print(f"step {step}: loss {loss:.4f} T {self.log_temp.exp().item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher = make_teacher()
    student = nn.Sequential(nn.Linear(DIM, 16), nn.ReLU(), nn.Linear(16, N_CLASSES))
    DistillTrainer(teacher, student).fit(steps=5)
