"""Progressive distillation (Salimans & Ho 2022) on 2-D points: a student learns to do in
one DDIM step what the teacher does in two. The teacher is a frozen copy of a briefly
pretrained model and runs under no_grad; its two-step target is clipped in place. The
student's trunk runs under non-reentrant activation checkpointing."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
T, BATCH = 32, 64
alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.1, T), dim=0)


def spiral(n):
    r = torch.rand(n) * 2 + 0.5
    return torch.stack([r * torch.cos(2.5 * r), r * torch.sin(2.5 * r)], dim=1) / 2.5


class X0Model(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T, hidden)
        self.inp = nn.Linear(2, hidden)
        self.trunk = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 2))
        self.use_checkpoint = False

    def forward(self, x, t):
        h = self.inp(x) + self.t_embed(t)
        h = checkpoint(self.trunk, h, use_reentrant=False) if self.use_checkpoint else self.trunk(h)
        return self.out(h)


def ddim_step(model, x, t, t_next):
    ab, ab_next = alpha_bar[t].unsqueeze(1), alpha_bar[t_next].unsqueeze(1)
    x0 = model(x, t)
    eps = (x - ab.sqrt() * x0) / (1 - ab).sqrt()
    return ab_next.sqrt() * x0 + (1 - ab_next).sqrt() * eps


base = X0Model()
opt = torch.optim.Adam(base.parameters(), lr=3e-3)
for _ in range(3):  # short pretraining of the teacher
    x0, t = spiral(BATCH), torch.randint(0, T, (BATCH,))
    ab = alpha_bar[t].unsqueeze(1)
    loss = F.mse_loss(base(ab.sqrt() * x0 + (1 - ab).sqrt() * torch.randn_like(x0), t), x0)
    opt.zero_grad()
    loss.backward()
    opt.step()

teacher = copy.deepcopy(base).eval().requires_grad_(False)
student = copy.deepcopy(base)
student.use_checkpoint = True
optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
for step in range(6):
    x0 = spiral(BATCH)
    t = torch.randint(2, T, (BATCH,))
    ab = alpha_bar[t].unsqueeze(1)
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * torch.randn_like(x0)
    with torch.no_grad():
        x_mid = ddim_step(teacher, x_t, t, t - 1)
        x_target = ddim_step(teacher, x_mid, t - 1, t - 2)
        x_target.clamp_(-1.5, 1.5)
    x_student = ddim_step(student, x_t, t, t - 2)
    loss = F.mse_loss(x_student, x_target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} distill loss {loss.item():.5f}")
print(f"checksum student {sum(p.sum().item() for p in student.parameters()):.4f} "
      f"teacher {sum(p.sum().item() for p in teacher.parameters()):.4f}")
