"""Knowledge distillation of a wide MLP teacher into a narrow student with gradient
accumulation: four micro-batches per optimizer step, the window's loss is logged."""
import torch
import torch.nn as nn
import torch.nn.functional as F

ACCUM, TEMP = 4, 2.0


def kd_loss(student_logits, teacher_logits, labels, alpha=0.7):
    soft = F.kl_div(F.log_softmax(student_logits / TEMP, dim=-1),
                    F.softmax(teacher_logits / TEMP, dim=-1), reduction="batchmean")
    return alpha * TEMP ** 2 * soft + (1 - alpha) * F.cross_entropy(student_logits, labels)


def train(student, teacher, micro_batches, optimizer):
    teacher.eval()
    window_loss = 0.0
    for i, (x, y) in enumerate(micro_batches):
        with torch.no_grad():
            teacher_logits = teacher(x)
        loss = kd_loss(student(x), teacher_logits, y)
        window_loss = window_loss + loss / ACCUM
        window_loss.backward()
        if (i + 1) % ACCUM == 0:
            torch.nn.utils.clip_grad_norm_(student.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
            print(f"update {(i + 1) // ACCUM} window loss {float(window_loss):.4f}")
            window_loss = 0.0


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(10, 128), nn.ReLU(), nn.Linear(128, 5))
    student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 5))
    data = [(torch.randn(8, 10), torch.randint(0, 5, (8,))) for _ in range(8)]
    optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
    train(student, teacher, data, optimizer)
