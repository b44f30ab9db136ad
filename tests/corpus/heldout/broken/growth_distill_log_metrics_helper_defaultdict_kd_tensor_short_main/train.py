"""Quick distillation smoke run: an 8-step main() that distils a frozen teacher into a
student on random "sensor window" features and keeps every logged value in a history dict for
the end-of-run summary."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, N_CLASSES, TEMPERATURE, ALPHA, STEPS = 18, 4, 2.0, 0.5, 8


def log_metrics(history, **values):
    for name, value in values.items():
        history[name].append(value)


def summarize(history):
    return {name: sum(float(v) for v in vals) / len(vals) for name, vals in history.items()}


def main():
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(IN_DIM, 96), nn.Tanh(), nn.Linear(96, N_CLASSES)).eval()
    student = nn.Sequential(nn.Linear(IN_DIM, 12), nn.Tanh(), nn.Linear(12, N_CLASSES))
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
    history = defaultdict(list)

    for step in range(STEPS):
        x = torch.randn(32, IN_DIM)
        with torch.no_grad():
            t_logits = teacher(x)
        y = t_logits.argmax(1)
        s_logits = student(x)
        kd = F.kl_div(F.log_softmax(s_logits / TEMPERATURE, 1), F.softmax(t_logits / TEMPERATURE, 1),
                      reduction="batchmean") * TEMPERATURE ** 2
        ce = F.cross_entropy(s_logits, y)
        loss = ALPHA * kd + (1 - ALPHA) * ce
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        agree = (s_logits.argmax(1) == y).float().mean().item()
        log_metrics(history, kd=kd, ce=ce.item(), agreement=agree)
        print(f"step {step}: loss {loss.item():.4f} agreement {agree:.3f}")

    summary = summarize(history)
    print("summary " + " ".join(f"{k} {v:.4f}" for k, v in summary.items()))
    return summary


if __name__ == "__main__":
    main()
