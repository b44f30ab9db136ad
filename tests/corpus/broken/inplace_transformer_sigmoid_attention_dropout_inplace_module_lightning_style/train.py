"""Sequence classification with a small sigmoid-attention transformer, organised like a
LightningModule (training_step / configure_optimizers) driven by a minimal fit loop.
Task: does token 5 occur more often than token 6 in the sequence?"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import Block

VOCAB, SEQ = 12, 16


class CountClassifier(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim)
        self.pos = nn.Parameter(0.02 * torch.randn(SEQ, dim))
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 2)

    def forward(self, ids):
        h = self.blocks(self.embed(ids) + self.pos)
        return self.head(self.norm(h).mean(dim=1))

    def training_step(self, batch):
        ids, labels = batch
        logits = self(ids)
        loss = F.cross_entropy(logits, labels)
        acc = (logits.argmax(1) == labels).float().mean()
        return loss, {"loss": loss.item(), "acc": acc.item()}

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=2e-3, weight_decay=0.05)


def batches(n, size, gen):
    for _ in range(n):
        ids = torch.randint(0, VOCAB, (size, SEQ), generator=gen)
        labels = ((ids == 5).sum(1) > (ids == 6).sum(1)).long()
        yield ids, labels


def fit(module, epochs=3, steps=2, batch_size=32):
    gen = torch.Generator().manual_seed(4)
    optimizer = module.configure_optimizers()
    module.train()
    for epoch in range(epochs):
        for batch in batches(steps, batch_size, gen):
            loss, logs = module.training_step(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {logs['loss']:.4f} acc {logs['acc']:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    fit(CountClassifier())
