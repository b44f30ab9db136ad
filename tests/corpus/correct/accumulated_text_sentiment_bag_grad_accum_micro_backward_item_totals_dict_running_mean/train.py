"""Review sentiment with an EmbeddingBag model, gradient accumulation over micro-batches.

Each micro-batch loss is backwarded right away (scaled by 1/accum); the
per-epoch totals and the running mean are plain Python floats.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, POS_WORDS, NEG_WORDS = 50, range(2, 10), range(10, 18)


class BagSentiment(nn.Module):
    def __init__(self, dim=12):
        super().__init__()
        self.bag = nn.EmbeddingBag(VOCAB, dim, mode="mean")
        self.head = nn.Linear(dim, 2)

    def forward(self, tokens):
        return self.head(torch.tanh(self.bag(tokens)))


def reviews(n, length, g):
    labels = torch.randint(0, 2, (n,), generator=g)
    tokens = torch.randint(18, VOCAB, (n, length), generator=g)
    pos = torch.tensor(list(POS_WORDS))
    neg = torch.tensor(list(NEG_WORDS))
    for i, lab in enumerate(labels.tolist()):
        pool = pos if lab == 1 else neg
        tokens[i, :3] = pool[torch.randint(0, len(pool), (3,), generator=g)]
    return tokens, labels


def train_epoch(model, optimizer, tokens, labels, micro=4, accum=3):
    totals = {"loss": 0.0, "correct": 0, "seen": 0}
    running_mean = 0.0
    optimizer.zero_grad()
    n_micro = tokens.shape[0] // micro
    for i in range(n_micro):
        xb, yb = tokens[i * micro:(i + 1) * micro], labels[i * micro:(i + 1) * micro]
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        (loss / accum).backward()
        totals["loss"] += loss.item() * yb.shape[0]
        totals["correct"] += (logits.argmax(1) == yb).sum().item()
        totals["seen"] += yb.shape[0]
        running_mean += (loss.item() - running_mean) / (i + 1)
        if (i + 1) % accum == 0 or i + 1 == n_micro:
            optimizer.step()
            optimizer.zero_grad()
    return totals["loss"] / totals["seen"], totals["correct"] / totals["seen"], running_mean


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(8)
    tokens, labels = reviews(36, 7, g)
    model = BagSentiment()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    for epoch in range(3):
        mean_loss, acc, running = train_epoch(model, optimizer, tokens, labels)
        print(f"epoch {epoch} loss {mean_loss:.4f} acc {acc:.3f} running {running:.4f}")
    checksum = sum(p.detach().double().abs().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
