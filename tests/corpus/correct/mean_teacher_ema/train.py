"""Mean-teacher semi-supervised training: the teacher is a deep copy of the student whose
parameters are detached in place; after every student step it is updated as an EMA of
the student under torch.no_grad() (in-place mul_/add_). A consistency loss pulls the
student's predictions on noisy inputs towards the teacher's."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(15)
EMA_DECAY, CONS_WEIGHT = 0.9, 1.0


def make_model():
    return nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))


def update_ema(teacher, student, decay):
    with torch.no_grad():
        for t, s in zip(teacher.parameters(), student.parameters()):
            t.mul_(decay).add_(s, alpha=1 - decay)


student = make_model()
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.detach_()
optimizer = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)

labelled_x, labelled_y = torch.randn(8, 5), torch.randint(0, 3, (8,))
unlabelled = torch.randn(6, 16, 5)
for step, u in enumerate(unlabelled):
    x = torch.cat([labelled_x, u])
    student_logits = student(x + 0.1 * torch.randn_like(x))
    with torch.no_grad():
        teacher_logits = teacher(x + 0.1 * torch.randn_like(x))
    class_loss = F.cross_entropy(student_logits[:8], labelled_y)
    consistency = F.mse_loss(F.softmax(student_logits, 1), F.softmax(teacher_logits, 1))
    loss = class_loss + CONS_WEIGHT * consistency
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    update_ema(teacher, student, EMA_DECAY)
    print(f"step {step} class {class_loss.item():.6f} consistency {consistency.item():.6f}")

print(f"checksum student {sum(p.sum().item() for p in student.parameters()):.6f}")
print(f"checksum teacher {sum(p.sum().item() for p in teacher.parameters()):.6f}")
