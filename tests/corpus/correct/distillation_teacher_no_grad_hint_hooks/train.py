"""Knowledge distillation with logit KD plus a FitNets-style hint loss taken from hooks.

The teacher is trained briefly, then frozen in eval mode; its forward runs under
torch.no_grad(). Forward hooks on the teacher's and the student's hidden layers store the
activations in dicts that are overwritten on every forward; the student's hint passes
through a small trainable regressor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(14)
T, ALPHA, BETA = 3.0, 0.7, 0.5


def make_batch(n=32):
    x = torch.randn(n, 10)
    y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 1).long()
    return x, y


teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 3))
student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
regressor = nn.Linear(16, 32)

teacher_opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
for _ in range(5):
    x, y = make_batch()
    teacher_loss = F.cross_entropy(teacher(x), y)
    teacher_opt.zero_grad()
    teacher_loss.backward()
    teacher_opt.step()
print(f"teacher pretrain loss {teacher_loss.item():.6f}")
teacher.eval()

feats = {"teacher": None, "student": None}


def keep(name):
    def hook(module, inputs, output):
        feats[name] = output
    return hook


teacher[3].register_forward_hook(keep("teacher"))
student[1].register_forward_hook(keep("student"))

optimizer = torch.optim.Adam([*student.parameters(), *regressor.parameters()], lr=1e-2)
for step in range(6):
    x, y = make_batch()
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1),
                  reduction="batchmean") * T * T
    hint = F.mse_loss(regressor(feats["student"]), feats["teacher"])
    ce = F.cross_entropy(s_logits, y)
    loss = ALPHA * kd + (1 - ALPHA) * ce + BETA * hint
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} kd {kd.item():.6f} hint {hint.item():.6f} ce {ce.item():.6f}")
print(f"checksum {sum(p.sum().item() for m in (student, regressor) for p in m.parameters()):.6f}")
