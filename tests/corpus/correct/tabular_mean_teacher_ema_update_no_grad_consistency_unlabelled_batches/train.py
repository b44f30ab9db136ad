# Mean-teacher semi-supervised classification on tabular sensor data.
# The teacher is a deepcopy of the student, never handed to the optimizer,
# and follows the student by an exponential moving average under no_grad.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)
gen = torch.Generator().manual_seed(4)

student = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 3))
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)


@torch.no_grad()
def ema_update(teacher, student, decay):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.mul_(decay).add_(s, alpha=1 - decay)


def noisy(x):
    return x + 0.1 * torch.randn(x.shape, generator=gen)


w_true = torch.randn(12, 3, generator=gen)
for step in range(6):
    x_lab = torch.randn(16, 12, generator=gen)
    y_lab = (x_lab @ w_true).argmax(dim=1)
    x_unl = torch.randn(32, 12, generator=gen)

    student.train()
    teacher.train()
    sup = F.cross_entropy(student(noisy(x_lab)), y_lab)
    with torch.no_grad():
        t_probs = F.softmax(teacher(noisy(x_unl)), dim=1)
    cons = F.mse_loss(F.softmax(student(noisy(x_unl)), dim=1), t_probs)
    ramp = min(1.0, (step + 1) / 4)
    loss = sup + 5.0 * ramp * cons

    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update(teacher, student, decay=0.9)
    print(f"step {step} sup {sup.item():.4f} cons {cons.item():.5f}")

print("student checksum", round(sum(p.sum().item() for p in student.parameters()), 4))
print("teacher checksum", round(sum(p.sum().item() for p in teacher.parameters()), 4))
