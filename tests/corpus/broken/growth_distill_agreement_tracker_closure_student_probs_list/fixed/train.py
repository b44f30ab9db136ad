"""Knowledge distillation of a wide MLP teacher into a small student on a synthetic
10-class task. A tracker built by make_agreement_tracker() keeps every batch's student and
teacher probabilities to report top-1 agreement and the student's calibration gap."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, N_CLASSES, T = 20, 10, 4.0


def mlp(hidden):
    return nn.Sequential(nn.Linear(IN_DIM, hidden), nn.ReLU(), nn.Linear(hidden, N_CLASSES))


def make_agreement_tracker():
    student_probs, teacher_probs = [], []

    def track(s_logits, t_logits):
        student_probs.append(F.softmax(s_logits.detach(), dim=1))
        teacher_probs.append(F.softmax(t_logits, dim=1))

    def report(epoch):
        s, t = torch.cat(student_probs), torch.cat(teacher_probs)
        agree = (s.argmax(1) == t.argmax(1)).float().mean().item()
        gap = (s.max(1).values.mean() - t.max(1).values.mean()).item()
        print(f"epoch {epoch} running agreement {agree:.3f} confidence gap {gap:+.3f} "
              f"({len(student_probs)} batches)")

    return track, report


def kd_loss(s_logits, t_logits, y, alpha=0.7):
    soft = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1),
                    reduction="batchmean") * T * T
    return alpha * soft + (1 - alpha) * F.cross_entropy(s_logits, y)


torch.manual_seed(0)
teacher, student = mlp(256).eval(), mlp(24)
optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
w = torch.randn(IN_DIM, N_CLASSES)
track, report = make_agreement_tracker()

for epoch in range(2):
    for step in range(6):
        x = torch.randn(64, IN_DIM)
        y = (x @ w).argmax(1)
        with torch.no_grad():
            t_logits = teacher(x)
        s_logits = student(x)
        loss = kd_loss(s_logits, t_logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        track(s_logits, t_logits)
    report(epoch)
