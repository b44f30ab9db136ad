"""Semi-supervised keyword spotting with a mean teacher on synthetic log-mel clips: the
student sees a few labelled clips plus unlabelled ones, a consistency loss pulls its
predictions towards an EMA teacher's, and the teacher's weights (and BatchNorm buffers)
follow the student after every optimizer step."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_MELS, FRAMES, N_WORDS, BATCH, STEPS, EMA_DECAY = 20, 24, 4, 16, 8, 0.95


def synth_clips(n):
    """Each keyword excites its own band of mel bins in the middle of the clip."""
    words = torch.randint(0, N_WORDS, (n,))
    clips = 0.5 * torch.randn(n, N_MELS, FRAMES)
    for k in range(n):
        band = slice(4 * int(words[k]) + 1, 4 * int(words[k]) + 5)
        clips[k, band, 6:18] += 1.5
    return clips, words


def augment(clips):
    shift = int(torch.randint(-2, 3, ()))
    return torch.roll(clips, shift, dims=2) + 0.1 * torch.randn_like(clips)


class KWSNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 32, 3, padding=1), nn.BatchNorm1d(32), nn.ReLU())
        self.head = nn.Linear(32, N_WORDS)

    def forward(self, x):
        return self.head(self.conv(x).mean(dim=2))


@torch.no_grad()
def update_teacher(teacher, student, decay):
    for t_p, s_p in zip(teacher.parameters(), student.parameters()):
        t_p.mul_(decay).add_(s_p, alpha=1 - decay)
    for t_b, s_b in zip(teacher.buffers(), student.buffers()):
        t_b.copy_(s_b)


student = KWSNet()
teacher = copy.deepcopy(student).requires_grad_(False)
optimizer = torch.optim.Adam(student.parameters(), lr=3e-3)
labelled, labels = synth_clips(BATCH)
held_out, held_labels = synth_clips(64)
meters = {"ce": 0.0, "cons": 0.0}
cons_ema = None
for step in range(STEPS):
    unlabelled, _ = synth_clips(BATCH)
    ce = F.cross_entropy(student(augment(labelled)), labels)
    student_probs = F.softmax(student(augment(unlabelled)), dim=1)
    with torch.no_grad():
        teacher_probs = F.softmax(teacher(augment(unlabelled)), dim=1)
    cons = F.mse_loss(student_probs, teacher_probs)
    weight = 10.0 * min(1.0, (step + 1) / 4)
    loss = ce + weight * cons
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    update_teacher(teacher, student, EMA_DECAY)
    meters["ce"] += ce.item()
    meters["cons"] += cons.item()
    cons_ema = cons.item() if cons_ema is None else 0.9 * cons_ema + 0.1 * cons.item()
    print(f"step {step} ce {ce.item():.4f} cons {cons.item():.5f} cons-ema {cons_ema:.5f}")

teacher.eval()
with torch.no_grad():
    acc = (teacher(held_out).argmax(1) == held_labels).float().mean().item()
print(f"mean ce {meters['ce'] / STEPS:.4f} mean cons {meters['cons'] / STEPS:.5f} "
      f"teacher acc {acc:.3f}")
checksum = sum(p.abs().sum().item() for p in teacher.parameters())
print(f"teacher checksum {checksum:.4f}")
