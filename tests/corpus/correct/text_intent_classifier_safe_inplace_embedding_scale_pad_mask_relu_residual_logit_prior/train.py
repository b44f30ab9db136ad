"""Intent classifier for short assistant commands (bag-of-embeddings + MLP) written with
memory-saving in-place ops, each on a tensor no backward formula saved: scaling and
position-adding the embedding lookup, zeroing padding positions, an in-place ReLU on a
Linear output, an in-place residual add, and an in-place prior shift on the out-of-scope
logit."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM, HIDDEN, MAXLEN = 50, 16, 32, 8
INTENTS = ["alarm", "weather", "music", "timer", "out_of_scope"]
OOS = INTENTS.index("out_of_scope")


class IntentClassifier(nn.Module):
    def __init__(self, oos_prior=0.5):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.pos = nn.Parameter(torch.randn(MAXLEN, DIM) * 0.02)
        self.fc1 = nn.Linear(2 * DIM, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, len(INTENTS))
        self.oos_prior = oos_prior

    def forward(self, tokens):
        pad = tokens.eq(0).unsqueeze(-1)
        x = self.emb(tokens)
        x.mul_(math.sqrt(DIM))             # embedding backward keeps only the indices
        x += self.pos[: tokens.shape[1]]
        x.masked_fill_(pad, 0.0)           # padding contributes nothing
        lengths = (~pad).sum(1).clamp(min=1)
        pooled = torch.cat([x.sum(1) / lengths, x.masked_fill(pad, -1e4).amax(1)], -1)
        h = self.fc1(pooled)
        F.relu(h, inplace=True)            # addmm did not save its output
        h2 = self.fc2(F.dropout(h, 0.1, self.training))
        h2 += h                            # residual, written into fc2's fresh output
        logits = self.out(torch.tanh(h2))
        logits[:, OOS] -= self.oos_prior   # out-of-scope needs more evidence
        return logits


def make_batch(n):
    """Each intent owns a band of 8 token ids; commands are 3-8 tokens, 0-padded."""
    labels = torch.randint(0, len(INTENTS), (n,))
    tokens = torch.zeros(n, MAXLEN, dtype=torch.long)
    for i in range(n):
        length = int(torch.randint(3, MAXLEN + 1, ()))
        own = 1 + 8 * int(labels[i]) + torch.randint(0, 8, (length,))
        noise = torch.randint(41, VOCAB, (length,))
        keep = torch.rand(length) < 0.7
        tokens[i, :length] = torch.where(keep, own, noise)
    return tokens, labels


def train(epochs=3, batches=2):
    model = IntentClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
    data = [make_batch(32) for _ in range(batches)]
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for tokens, labels in data:
            loss = F.cross_entropy(model(tokens), labels, label_smoothing=0.05)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / batches:.5f}")
    model.eval()
    with torch.no_grad():
        tokens, labels = make_batch(128)
        acc = (model(tokens).argmax(-1) == labels).float().mean().item()
    print(f"eval accuracy {acc:.4f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
