"""Knowledge distillation with a feature (hint) loss: the student's middle block is matched
to the teacher's middle block through a small adapter, on top of the usual soft-label loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import ActivationCatcher

IN_DIM, N_CLASSES, BATCH, T = 10, 5, 16, 2.0


def mlp(width):
    return nn.Sequential(nn.Linear(IN_DIM, width), nn.ReLU(),
                         nn.Linear(width, width), nn.ReLU(),
                         nn.Linear(width, N_CLASSES))


torch.manual_seed(0)
teacher, student = mlp(48), mlp(16)
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)
adapter = nn.Linear(16, 48)
t_catch = ActivationCatcher(teacher[2])
s_catch = ActivationCatcher(student[2])
optimizer = torch.optim.Adam(list(student.parameters()) + list(adapter.parameters()), lr=3e-3)

for step in range(5):
    x = torch.randn(BATCH, IN_DIM)
    t_catch.clear()
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                  reduction="batchmean") * T * T
    hint = sum(F.mse_loss(adapter(s), t) for s, t in zip(s_catch.outputs, t_catch.outputs))
    loss = kd + 0.5 * hint
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: kd {kd.item():.4f} hint {hint.item():.4f}")
