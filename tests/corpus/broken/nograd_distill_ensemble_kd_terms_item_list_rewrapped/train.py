"""Distilling an ensemble of three review-sentiment teachers (bag-of-words MLPs) into one
small student on an unlabeled transfer set. Each teacher gets its own temperature-scaled KL
term, weighted by the teacher's held-out accuracy."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, N_CLASSES, TEMPERATURE, BATCH = 50, 3, 2.0, 32


def make_teacher(hidden):
    return nn.Sequential(nn.Linear(VOCAB, hidden), nn.ReLU(), nn.Linear(hidden, N_CLASSES)).eval()


teachers = [make_teacher(h) for h in (64, 96, 128)]
for t in teachers:
    t.requires_grad_(False)
teacher_acc = [0.81, 0.78, 0.84]  # from each teacher's model card
teacher_weights = torch.tensor(teacher_acc) / sum(teacher_acc)

student = nn.Sequential(nn.Linear(VOCAB, 24), nn.ReLU(), nn.Linear(24, N_CLASSES))
optimizer = torch.optim.Adam(student.parameters(), lr=3e-3)
transfer_set = (torch.rand(4 * BATCH, VOCAB) < 0.1).float()  # unlabeled bag-of-words reviews

for epoch in range(2):
    for docs in transfer_set.split(BATCH):
        log_p_student = F.log_softmax(student(docs) / TEMPERATURE, dim=1)
        per_teacher = []
        with torch.no_grad():
            soft_targets = [F.softmax(t(docs) / TEMPERATURE, dim=1) for t in teachers]
        for target in soft_targets:
            kd = F.kl_div(log_p_student, target, reduction="batchmean") * TEMPERATURE ** 2
            per_teacher.append(kd)
        kd_terms = torch.tensor([kd.item() for kd in per_teacher])
        loss = (teacher_weights * kd_terms).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} weighted kd {loss.item():.4f} "
          f"per teacher {[round(kd.item(), 4) for kd in per_teacher]}")
print(f"student checksum {sum(p.sum().item() for p in student.parameters()):.4f}")
