"""Mean-teacher style self-distillation for a bag-of-embeddings text classifier: a few
labelled sentences, many unlabelled ones, and an EMA teacher whose soft predictions on
the unlabelled batch are distilled into the student."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, N_CLASSES, SEQ, EMA_DECAY, TEMP = 60, 16, 3, 8, 0.9, 2.0


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.EmbeddingBag(VOCAB, DIM, mode="mean")
        self.drop = nn.Dropout(0.1)
        self.fc = nn.Linear(DIM, N_CLASSES)

    def forward(self, tokens):
        return self.fc(self.drop(self.embed(tokens)))


def sentences(n, generator):
    labels = torch.randint(0, N_CLASSES, (n,), generator=generator)
    topical = labels.unsqueeze(1) * 20 + torch.randint(0, 20, (n, SEQ // 2), generator=generator)
    noise = torch.randint(0, VOCAB, (n, SEQ - SEQ // 2), generator=generator)
    return torch.cat([topical, noise], dim=1), labels


def ema_update(teacher, student, decay):
    with torch.no_grad():
        for t_param, s_param in zip(teacher.parameters(), student.parameters()):
            t_param.lerp_(s_param, 1.0 - decay)


def train(steps=6):
    gen = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    student = BagClassifier()
    teacher = copy.deepcopy(student).requires_grad_(False)
    optimizer = torch.optim.Adam(student.parameters(), lr=5e-3)
    for step in range(steps):
        x_lab, y_lab = sentences(8, gen)
        x_unl, _ = sentences(24, gen)
        with torch.no_grad():
            soft_targets = F.softmax(teacher(x_unl) / TEMP, dim=1)
        sup = F.cross_entropy(student(x_lab), y_lab)
        distill = F.kl_div(F.log_softmax(student(x_unl) / TEMP, dim=1), soft_targets,
                           reduction="batchmean") * TEMP ** 2
        loss = sup + min(1.0, step / 3) * distill
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema_update(teacher, student, EMA_DECAY)
        print(f"step {step} sup {sup.item():.4f} distill {distill.item():.4f}")
    drift = sum((t - s).abs().sum().item()
                for t, s in zip(teacher.parameters(), student.parameters()))
    print(f"teacher/student drift {drift:.6f}")


if __name__ == "__main__":
    train()
