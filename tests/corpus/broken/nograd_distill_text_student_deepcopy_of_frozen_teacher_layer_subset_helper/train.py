"""Distil a 4-layer review-sentiment transformer into a 2-layer student initialised from the
teacher's layers 0 and 2, on the teacher's soft labels plus the gold labels."""
import torch
import torch.nn as nn

from distill_utils import init_student_from_teacher, kd_loss

VOCAB, DIM, N_CLASSES, SEQ = 200, 32, 3, 12


class TinyEncoderClassifier(nn.Module):
    def __init__(self, n_layers):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.randn(SEQ, DIM) * 0.02)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.0,
                                       batch_first=True)
            for _ in range(n_layers))
        self.classifier = nn.Linear(DIM, N_CLASSES)

    def forward(self, ids, pad_mask):
        h = self.tok(ids) + self.pos
        for layer in self.layers:
            h = layer(h, src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.classifier(pooled)


def reviews(n, gen):
    ids = torch.randint(1, VOCAB, (n, SEQ), generator=gen)
    lengths = torch.randint(5, SEQ + 1, (n,), generator=gen)
    pad_mask = torch.arange(SEQ) >= lengths[:, None]
    ids = ids.masked_fill(pad_mask, 0)
    labels = (ids[:, :4].sum(1) % N_CLASSES)
    return ids, pad_mask, labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    teacher = TinyEncoderClassifier(n_layers=4)
    teacher.eval()
    teacher.requires_grad_(False)

    student = init_student_from_teacher(teacher, keep_layers=[0, 2])
    student.train()
    optimizer = torch.optim.AdamW(student.parameters(), lr=1e-3, weight_decay=0.01)

    for step in range(4):
        ids, pad_mask, labels = reviews(16, gen)
        with torch.no_grad():
            teacher_logits = teacher(ids, pad_mask)
        student_logits = student(ids, pad_mask)
        loss = kd_loss(student_logits, teacher_logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} kd loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
