"""LP-FT for a small defect classifier, done right: stage 1 trains only the head on a frozen
backbone (backbone forward under no_grad, head-only optimizer); stage 2 unfreezes the
backbone with requires_grad_(True), builds a fresh optimizer with discriminative learning
rates, and adds a consistency loss against an EMA teacher copied after that optimizer."""
import copy
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_classes: int = 3
    size: int = 8
    probe_steps: int = 3
    ft_steps: int = 5
    backbone_lr: float = 5e-4
    head_lr: float = 5e-3
    ema_decay: float = 0.9
    consistency: float = 0.5


class DefectNet(nn.Module):
    def __init__(self, n_classes, width=8):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(width, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


def defect_batch(cfg, n=16):
    """0: clean, 1: scratch (a bright row), 2: spot (a bright 2x2 blob)."""
    y = torch.randint(0, cfg.n_classes, (n,))
    x = 0.3 * torch.randn(n, 1, cfg.size, cfg.size)
    for i, k in enumerate(y.tolist()):
        if k == 1:
            x[i, 0, 3] += 1.5
        elif k == 2:
            x[i, 0, 2:4, 5:7] += 2.0
    return x, y


def linear_probe(model, cfg):
    model.backbone.requires_grad_(False).eval()
    opt = torch.optim.SGD(model.head.parameters(), lr=0.1, momentum=0.9)
    for step in range(cfg.probe_steps):
        x, y = defect_batch(cfg)
        with torch.no_grad():
            feats = model.backbone(x)
        loss = F.cross_entropy(model.head(feats), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"probe {step} loss {loss.item():.4f}")


@torch.no_grad()
def ema_update(teacher, student, decay):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.lerp_(s, 1 - decay)


def finetune(model, cfg):
    model.requires_grad_(True).train()
    opt = torch.optim.AdamW([
        {"params": model.backbone.parameters(), "lr": cfg.backbone_lr},
        {"params": model.head.parameters(), "lr": cfg.head_lr},
    ])
    teacher = copy.deepcopy(model).eval().requires_grad_(False)
    for step in range(cfg.ft_steps):
        x, y = defect_batch(cfg)
        logits = model(x + 0.1 * torch.randn_like(x))
        with torch.no_grad():
            target = teacher(x).softmax(-1)
        ce = F.cross_entropy(logits, y)
        cons = F.mse_loss(logits.softmax(-1), target)
        loss = ce + cfg.consistency * cons
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_update(teacher, model, cfg.ema_decay)
        print(f"finetune {step} ce {ce.item():.4f} consistency {cons.item():.5f}")
    return teacher


torch.manual_seed(0)
cfg = Config()
model = DefectNet(cfg.n_classes)  # backbone weights stand in for a pretrained encoder
linear_probe(model, cfg)
teacher = finetune(model, cfg)
print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4),
      "teacher", round(sum(p.sum().item() for p in teacher.parameters()), 4))
