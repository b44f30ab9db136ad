"""Single-head causal LM with learned rotary frequencies on a toy copy task."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from posenc import apply_rotary, rotary_table

VOCAB, DIM, SEQ = 24, 16, 8


class RopeLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.q = nn.Linear(DIM, DIM)
        self.k = nn.Linear(DIM, DIM)
        self.v = nn.Linear(DIM, DIM)
        self.lm_head = nn.Linear(DIM, VOCAB)
        base = 1.0 / (50 ** (torch.arange(0, DIM, 2).float() / DIM))
        self.inv_freq = nn.Parameter(base)
        self.angles = rotary_table(self.inv_freq)

    def forward(self, tokens):
        x = self.embed(tokens)
        theta = self.angles(tokens.shape[1])
        q = apply_rotary(self.q(x), theta)
        k = apply_rotary(self.k(x), theta)
        scores = q @ k.transpose(1, 2) / math.sqrt(DIM)
        mask = torch.ones(tokens.shape[1], tokens.shape[1]).tril().bool()
        scores = scores.masked_fill(~mask, float("-inf"))
        h = scores.softmax(-1) @ self.v(x)
        return self.lm_head(x + h)


def batches(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n):
        half = torch.randint(1, VOCAB, (4, SEQ // 2), generator=g)
        seq = torch.cat([half, half], dim=1)
        yield seq[:, :-1], seq[:, 1:]


torch.manual_seed(0)
model = RopeLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

for step, (inp, tgt) in enumerate(batches(6)):
    logits = model(inp)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
