"""Knowledge distillation with a FitNets hint: the student matches the teacher's soft labels
and, through a small regressor, the teacher's intermediate features. Intermediate features
are captured with forward-hook objects, so the model classes stay untouched."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, N_CLASSES, TEMP, ALPHA, HINT_WEIGHT = 24, 5, 3.0, 0.7, 0.5


def mlp(widths):
    blocks = [nn.Sequential(nn.Linear(a, b), nn.ReLU()) for a, b in zip(widths[:-1], widths[1:])]
    return nn.Sequential(*blocks, nn.Linear(widths[-1], N_CLASSES))


class FeatureTap:
    """Forward hook that keeps the last output of the module it is registered on."""

    def __init__(self, module):
        self.features = None
        self.handle = module.register_forward_hook(self)

    def __call__(self, module, inputs, output):
        self.features = output


def kd_loss(student_logits, teacher_logits, labels):
    soft = F.kl_div(F.log_softmax(student_logits / TEMP, dim=1),
                    F.softmax(teacher_logits / TEMP, dim=1), reduction="batchmean") * TEMP ** 2
    return ALPHA * soft + (1 - ALPHA) * F.cross_entropy(student_logits, labels)


def distill(steps=6, batch=32):
    torch.manual_seed(0)
    teacher = mlp([IN_DIM, 128, 64]).eval()
    student = mlp([IN_DIM, 32, 16])
    regressor = nn.Linear(16, 64)
    teacher_tap, student_tap = FeatureTap(teacher[1]), FeatureTap(student[1])
    optimizer = torch.optim.Adam(list(student.parameters()) + list(regressor.parameters()),
                                 lr=3e-3)
    w_true = torch.randn(IN_DIM, N_CLASSES)
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        labels = (x @ w_true).argmax(dim=1)
        with torch.no_grad():
            teacher_logits = teacher(x)
        student_logits = student(x)
        optimizer.zero_grad()
        task_loss = kd_loss(student_logits, teacher_logits, labels)
        task_loss.backward()
        hint = regressor(student_tap.features)
        hint_loss = HINT_WEIGHT * F.mse_loss(hint, teacher_tap.features)
        hint_loss.backward()
        optimizer.step()
        print(f"step {step} kd {task_loss.item():.4f} hint {hint_loss.item():.4f}")


if __name__ == "__main__":
    distill()
