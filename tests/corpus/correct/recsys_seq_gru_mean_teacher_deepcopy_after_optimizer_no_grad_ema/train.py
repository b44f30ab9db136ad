"""Next-item recommendation over short sessions with a GRU encoder (GRU4Rec-style), with a
mean-teacher consistency term: the student sees sessions with random item dropout, an EMA
teacher sees the clean sessions under no_grad, and the student's next-item distribution is
pulled toward the teacher's. The teacher is a deepcopy made after the optimizer was built;
the optimizer only ever holds the student."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, DIM, SEQ, BATCH, EMA, CONSISTENCY = 30, 16, 6, 32, 0.9, 0.5
PAD = 0


class SessionGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(N_ITEMS, DIM, padding_idx=PAD)
        self.gru = nn.GRU(DIM, DIM, batch_first=True)
        self.out = nn.Linear(DIM, N_ITEMS)

    def forward(self, sessions):
        h, _ = self.gru(self.items(sessions))
        return self.out(h[:, -1])


def sessions_batch(n):
    """Items come in 'aisles' of 5; a session mostly walks forward through one aisle."""
    start = torch.randint(1, N_ITEMS - SEQ - 1, (n, 1))
    walk = start + torch.arange(SEQ + 1)
    noise = torch.randint(1, N_ITEMS, walk.shape)
    seq = torch.where(torch.rand(walk.shape) < 0.15, noise, walk)
    return seq[:, :-1], seq[:, -1]


def item_dropout(sessions, p=0.2):
    return sessions.masked_fill(torch.rand(sessions.shape) < p, PAD)


@torch.no_grad()
def ema_update(teacher, student, decay=EMA):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.mul_(decay).add_(s, alpha=1 - decay)


def main():
    torch.manual_seed(0)
    student = SessionGRU()
    optimizer = torch.optim.Adam(student.parameters(), lr=5e-3)
    teacher = copy.deepcopy(student)
    teacher.requires_grad_(False)

    for epoch in range(2):
        for _ in range(3):
            sessions, next_item = sessions_batch(BATCH)
            student_logits = student(item_dropout(sessions))
            with torch.no_grad():
                teacher_probs = F.softmax(teacher(sessions), dim=1)
            ce = F.cross_entropy(student_logits, next_item)
            consistency = F.mse_loss(F.softmax(student_logits, dim=1), teacher_probs)
            loss = ce + CONSISTENCY * consistency
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema_update(teacher, student)
        hit = (student_logits.topk(5, dim=1).indices == next_item[:, None]).any(1)
        print(f"epoch {epoch} ce {ce.item():.4f} consistency {consistency.item():.6f} "
              f"hit@5 {hit.float().mean().item():.3f}")
    print(f"student checksum {sum(p.sum().item() for p in student.parameters()):.6f}")
    print(f"teacher checksum {sum(p.sum().item() for p in teacher.parameters()):.6f}")


if __name__ == "__main__":
    main()
