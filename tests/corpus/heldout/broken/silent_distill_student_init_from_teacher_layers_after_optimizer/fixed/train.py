"""DistilBERT-style compression of a 4-block residual MLP intent classifier into a 2-block
student: the student is initialised from every other teacher block, then trained on the
teacher's soft labels plus the gold intents."""
import torch
import torch.nn as nn
import torch.nn.functional as F

DIM, INTENTS, T, ALPHA = 16, 5, 2.0, 0.5


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class IntentNet(nn.Module):
    def __init__(self, n_blocks):
        super().__init__()
        self.blocks = nn.ModuleList(Block(DIM) for _ in range(n_blocks))
        self.classifier = nn.Linear(DIM, INTENTS)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.classifier(x)

    @classmethod
    def from_teacher(cls, teacher, stride=2):
        student = cls(len(teacher.blocks) // stride)
        for i, block in enumerate(student.blocks):
            block.load_state_dict(teacher.blocks[i * stride].state_dict())
        student.classifier.load_state_dict(teacher.classifier.state_dict())
        return student


def distill_loss(s_logits, t_logits, labels):
    soft = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                    reduction="batchmean") * T * T
    return ALPHA * soft + (1 - ALPHA) * F.cross_entropy(s_logits, labels)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    teacher = IntentNet(n_blocks=4).eval()
    student = IntentNet.from_teacher(teacher)
    optimizer = torch.optim.AdamW(student.parameters(), lr=2e-3)

    for step in range(6):
        x = torch.randn(32, DIM, generator=gen)
        labels = torch.randint(0, INTENTS, (32,), generator=gen)
        with torch.no_grad():
            t_logits = teacher(x)
        loss = distill_loss(student(x), t_logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} distill loss {loss.item():.4f}")
    return student


if __name__ == "__main__":
    main()
