"""Compressing an activity-recognition MLP: the student sees only unlabeled sensor windows
(the transfer set) and learns from the teacher's softened predictions."""
import torch
import torch.nn as nn

from kd import agreement, soft_kl

FEATURES, ACTIVITIES, TEMPERATURE = 18, 6, 3.0

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(FEATURES, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                        nn.Linear(128, ACTIVITIES))
student = nn.Sequential(nn.Linear(FEATURES, 24), nn.ReLU(), nn.Linear(24, ACTIVITIES))
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)

transfer_set = torch.randn(192, FEATURES)
optimizer = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)

for epoch in range(2):
    for batch in transfer_set.split(64):
        with torch.no_grad():
            teacher_logits = teacher(batch)
        student_logits = student(batch)
        loss = soft_kl(student_logits, teacher_logits, TEMPERATURE)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        agree = agreement(student(transfer_set), teacher(transfer_set))
    print(f"epoch {epoch} kd {loss.item():.4f} top-1 agreement {agree:.3f}")
