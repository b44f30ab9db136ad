"""Semi-supervised music genre tagging with a mean teacher.

The teacher is a copy of the student that is never optimized: its weights follow the
student through an EMA under torch.no_grad(), and its predictions on unlabelled clips are
made under torch.no_grad(), so the consistency target carries no graph across steps.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(13)
N_MELS, FRAMES, GENRES = 16, 24, 4


class GenreTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 24, 3, padding=1), nn.ReLU(),
                                  nn.Conv1d(24, 24, 3, padding=1), nn.ReLU())
        self.cls = nn.Linear(24, GENRES)

    def forward(self, mel):
        return self.cls(self.conv(mel).mean(-1))


def clips(n, labelled=True):
    genre = torch.randint(0, GENRES, (n,))
    band = torch.zeros(n, N_MELS, 1)
    band[torch.arange(n), genre * 4] = 2.0            # each genre lights up its own band
    mel = band + 0.7 * torch.randn(n, N_MELS, FRAMES)
    return (mel, genre) if labelled else mel


def augment(mel):
    shift = int(torch.randint(-2, 3, ()))
    return torch.roll(mel, shifts=shift, dims=-1) + 0.1 * torch.randn_like(mel)


@torch.no_grad()
def ema_update(teacher, student, decay):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.lerp_(s, 1.0 - decay)


student = GenreTagger()
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad_(False)
opt = torch.optim.Adam(student.parameters(), lr=3e-3)

for step in range(6):
    mel, genre = clips(8)
    unlabelled = clips(16, labelled=False)
    sup = F.cross_entropy(student(augment(mel)), genre)
    with torch.no_grad():
        target = F.softmax(teacher(augment(unlabelled)), dim=-1)
    cons = F.mse_loss(F.softmax(student(augment(unlabelled)), dim=-1), target)
    loss = sup + 2.0 * cons
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update(teacher, student, decay=0.9)
    print(f"step {step} sup {sup.item():.4f} cons {cons.item():.5f}")

student_sum = sum(p.abs().sum().item() for p in student.parameters())
teacher_sum = sum(p.abs().sum().item() for p in teacher.parameters())
print(f"checksum student {student_sum:.6f} teacher {teacher_sum:.6f}")
