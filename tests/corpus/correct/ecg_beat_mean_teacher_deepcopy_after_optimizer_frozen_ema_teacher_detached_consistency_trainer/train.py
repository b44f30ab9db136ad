"""Semi-supervised ECG beat classification with a mean teacher."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class BeatNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(8))
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


class MeanTeacherTrainer:
    def __init__(self, ema=0.9, cons_weight=0.5):
        self.student = BeatNet()
        self.optimizer = torch.optim.Adam(self.student.parameters(), lr=3e-3)
        # the teacher is never optimised: it is an exponential average of the student
        self.teacher = copy.deepcopy(self.student)
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.ema, self.cons_weight = ema, cons_weight

    @torch.no_grad()
    def update_teacher(self):
        for t, s in zip(self.teacher.parameters(), self.student.parameters()):
            t.mul_(self.ema).add_(s, alpha=1 - self.ema)

    def step(self, x_lab, y_lab, x_unlab):
        noisy = x_unlab + 0.05 * torch.randn_like(x_unlab)
        with torch.no_grad():
            teacher_probs = F.softmax(self.teacher(x_unlab), dim=1)
        sup = F.cross_entropy(self.student(x_lab), y_lab)
        cons = F.mse_loss(F.softmax(self.student(noisy), dim=1), teacher_probs.detach())
        loss = sup + self.cons_weight * cons
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.update_teacher()
        return sup.item(), cons.item()


def beats(n, g):
    y = torch.randint(0, 3, (n,), generator=g)
    t = torch.linspace(-1, 1, 32)
    width = torch.tensor([0.1, 0.25, 0.5])[y][:, None]
    x = torch.exp(-(t[None] ** 2) / width) + 0.1 * torch.randn(n, 32, generator=g)
    return x[:, None, :], y


if __name__ == "__main__":
    torch.manual_seed(6)
    g = torch.Generator().manual_seed(6)
    trainer = MeanTeacherTrainer()
    for it in range(6):
        x_lab, y_lab = beats(16, g)
        x_unlab, _ = beats(32, g)
        sup, cons = trainer.step(x_lab, y_lab, x_unlab)
        print(f"iter {it} sup {sup:.4f} cons {cons:.5f}")
    for name, net in (("student", trainer.student), ("teacher", trainer.teacher)):
        print(f"{name} checksum {sum(p.abs().sum().item() for p in net.parameters()):.6f}")
