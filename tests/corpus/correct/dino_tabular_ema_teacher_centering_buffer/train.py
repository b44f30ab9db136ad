"""DINO-style self-distillation on tabular rows: two augmented views (noise + random feature
masking), a student trained by AdamW and an EMA teacher copied from the student after the
optimizer was built. The teacher's outputs are centred with a running center buffer; the
teacher forward, the center update and the EMA update all run under no_grad."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, N_PROTOS, BATCH, STEPS = 12, 16, 64, 8
STUDENT_TEMP, TEACHER_TEMP, CENTER_MOMENTUM, EMA = 0.1, 0.04, 0.9, 0.99


class DinoNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(N_FEATURES, 48), nn.GELU(), nn.Linear(48, 32))
        self.head = nn.Sequential(nn.Linear(32, 32), nn.GELU(), nn.Linear(32, N_PROTOS))

    def forward(self, x):
        return self.head(self.backbone(x))


class DinoLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("center", torch.zeros(1, N_PROTOS))

    def forward(self, student_out, teacher_out):
        targets = [F.softmax((t - self.center) / TEACHER_TEMP, dim=-1) for t in teacher_out]
        log_probs = [F.log_softmax(s / STUDENT_TEMP, dim=-1) for s in student_out]
        loss = (-(targets[0] * log_probs[1]).sum(-1).mean()
                - (targets[1] * log_probs[0]).sum(-1).mean()) / 2
        self.update_center(torch.cat(teacher_out))
        return loss

    @torch.no_grad()
    def update_center(self, teacher_out):
        batch_center = teacher_out.mean(dim=0, keepdim=True)
        self.center.mul_(CENTER_MOMENTUM).add_(batch_center, alpha=1 - CENTER_MOMENTUM)


def augment(x):
    keep = (torch.rand_like(x) > 0.2).float()
    return x * keep + 0.1 * torch.randn_like(x)


def table(n):
    cluster = torch.randint(0, 4, (n,))
    centers = torch.randn(4, N_FEATURES) * 2
    return centers[cluster] + 0.5 * torch.randn(n, N_FEATURES)


student = DinoNet()
optimizer = torch.optim.AdamW(student.parameters(), lr=1e-3, weight_decay=0.04)
teacher = copy.deepcopy(student)
teacher.requires_grad_(False)
criterion = DinoLoss()
rows = table(512)

loss_history = []
for step in range(STEPS):
    x = rows[torch.randint(0, len(rows), (BATCH,))]
    views = [augment(x), augment(x)]
    student_out = [student(v) for v in views]
    with torch.no_grad():
        teacher_out = [teacher(v) for v in views]
    loss = criterion(student_out, teacher_out)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for t_param, s_param in zip(teacher.parameters(), student.parameters()):
            t_param.mul_(EMA).add_(s_param.detach(), alpha=1 - EMA)
    loss_history.append(loss.item())
    print(f"step {step} loss {loss.item():.6f} |center| {criterion.center.norm().item():.6f}")

print("losses " + " ".join(f"{v:.4f}" for v in loss_history))
print(f"student checksum {sum(p.sum().item() for p in student.parameters()):.6f}")
print(f"teacher checksum {sum(p.sum().item() for p in teacher.parameters()):.6f}")
