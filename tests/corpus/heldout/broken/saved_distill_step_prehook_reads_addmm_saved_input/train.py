"""Knowledge distillation of a wide MLP teacher into a small student on a synthetic
5-class problem (soft targets at temperature T plus hard labels). A probe reports the
student's penultimate feature norm at every optimizer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from probes import PenultimateNormProbe

N_IN, N_CLASSES, T, ALPHA = 10, 5, 3.0, 0.7


class Student(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_IN, 24), nn.ReLU(), nn.Linear(24, 16), nn.ReLU())
        self.classifier = nn.Linear(16, N_CLASSES)

    def forward(self, x):
        return self.classifier(self.body(x))


def distill_loss(student_logits, teacher_logits, labels):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=1), F.softmax(teacher_logits / T, dim=1),
                    reduction="batchmean") * T * T
    return ALPHA * soft + (1 - ALPHA) * F.cross_entropy(student_logits, labels)


def main():
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(N_IN, 128), nn.ReLU(), nn.Linear(128, N_CLASSES)).eval()
    teacher.requires_grad_(False)
    student = Student()
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
    probe = PenultimateNormProbe(student.classifier, optimizer)
    for step in range(5):
        x = torch.randn(32, N_IN)
        with torch.no_grad():
            teacher_logits = teacher(x)
        labels = teacher_logits.argmax(dim=1)
        loss = distill_loss(student(x), teacher_logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} kd loss {loss.item():.4f} feature norm {probe.norms[-1]:.4f}")
    probe.remove()


if __name__ == "__main__":
    main()
