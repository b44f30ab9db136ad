"""Knowledge distillation of a character-level GRU language model: a wide teacher (briefly
trained first) provides temperature-softened next-character distributions under
torch.no_grad(); the narrow student is trained on KL to the teacher plus cross-entropy."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog. " * 12
chars = sorted(set(TEXT))
ids = torch.tensor([chars.index(c) for c in TEXT])
V, SEQ, T = len(chars), 24, 2.0


class CharGRU(nn.Module):
    def __init__(self, emb, hidden):
        super().__init__()
        self.embed = nn.Embedding(V, emb)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, V)

    def forward(self, x):
        h, _ = self.gru(self.embed(x))
        return self.out(h)


class Distiller(nn.Module):
    def __init__(self, teacher, student):
        super().__init__()
        self.teacher, self.student = teacher, student

    @torch.no_grad()
    def soft_targets(self, x):
        self.teacher.eval()
        return F.softmax(self.teacher(x) / T, dim=-1)

    def forward(self, x, y, alpha=0.7):
        targets = self.soft_targets(x)
        logits = self.student(x)
        kd = F.kl_div(F.log_softmax(logits / T, dim=-1), targets, reduction="batchmean") * T * T
        ce = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
        return alpha * kd + (1 - alpha) * ce, kd, ce


def batch(n=8):
    starts = torch.randint(0, len(ids) - SEQ - 1, (n,))
    x = torch.stack([ids[s:s + SEQ] for s in starts.tolist()])
    y = torch.stack([ids[s + 1:s + SEQ + 1] for s in starts.tolist()])
    return x, y


torch.manual_seed(0)
teacher = CharGRU(emb=16, hidden=64)
teacher_opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
for _ in range(5):
    x, y = batch()
    loss = F.cross_entropy(teacher(x).reshape(-1, V), y.reshape(-1))
    teacher_opt.zero_grad()
    loss.backward()
    teacher_opt.step()
print(f"teacher loss after warm-up {loss.item():.4f}")

distiller = Distiller(teacher, CharGRU(emb=8, hidden=16))
optimizer = torch.optim.Adam(distiller.student.parameters(), lr=1e-2)
teacher_sum = sum(p.sum().item() for p in teacher.parameters())
for step in range(6):
    x, y = batch()
    loss, kd, ce = distiller(x, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} kd {kd.item():.4f} ce {ce.item():.4f}")

unchanged = abs(sum(p.sum().item() for p in teacher.parameters()) - teacher_sum) < 1e-9
print(f"teacher unchanged {unchanged}; student checksum "
      f"{sum(p.sum().item() for p in distiller.student.parameters()):.6f}")
