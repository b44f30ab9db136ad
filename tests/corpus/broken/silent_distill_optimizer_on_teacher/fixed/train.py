"""Knowledge distillation: a small student learns from a larger teacher's softened logits
plus the hard labels. The teacher only runs under no_grad to produce the soft targets."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN, N_CLASSES, TEMP, ALPHA = 20, 5, 2.0, 0.7


def distill_loss(student_logits, teacher_logits, labels):
    soft = F.softmax(teacher_logits / TEMP, dim=-1)
    kd = F.kl_div(F.log_softmax(student_logits / TEMP, dim=-1), soft, reduction="batchmean")
    return ALPHA * kd * TEMP * TEMP + (1 - ALPHA) * F.cross_entropy(student_logits, labels)


def main():
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(IN, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))
    student = nn.Sequential(nn.Linear(IN, 16), nn.ReLU(), nn.Linear(16, N_CLASSES))
    teacher.eval()
    optimizer = torch.optim.Adam(student.parameters(), lr=1e-2)

    for step in range(6):
        x = torch.randn(32, IN)
        labels = torch.randint(0, N_CLASSES, (32,))
        with torch.no_grad():
            teacher_logits = teacher(x)
        loss = distill_loss(student(x), teacher_logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} distill loss {loss.item():.4f}")
    checksum = sum(p.sum().item() for p in student.parameters())
    print(f"student checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
