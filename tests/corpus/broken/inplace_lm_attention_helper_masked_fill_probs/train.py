"""Single-layer causal character LM on padded batches of short words."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import attend

torch.manual_seed(0)
WORDS = ["tensor", "graph", "grad", "adam", "relu", "batch", "loss", "epoch", "layer", "token"]
VOCAB = ["<pad>", "<s>"] + sorted(set("".join(WORDS)))
PAD, BOS = 0, 1
STOI = {c: i for i, c in enumerate(VOCAB)}


def make_batch(words):
    width = max(len(w) for w in words) + 1
    seqs = torch.full((len(words), width), PAD)
    for row, word in enumerate(words):
        ids = [BOS] + [STOI[c] for c in word]
        seqs[row, :len(ids)] = torch.tensor(ids)
    targets = torch.full_like(seqs, PAD)
    targets[:, :-1] = seqs[:, 1:]
    return seqs, targets


class TinyLM(nn.Module):
    def __init__(self, vocab, dim=24, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, seqs):
        x = self.tok(seqs) + self.pos(torch.arange(seqs.size(1)))
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        h = x + attend(q, k, v, seqs == PAD)
        return self.out(h)


model = TinyLM(len(VOCAB))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(6):
    words = [WORDS[(step * 4 + i) % len(WORDS)] for i in range(4)]
    seqs, targets = make_batch(words)
    logits = model(seqs)
    loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), targets.reshape(-1), ignore_index=PAD)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
