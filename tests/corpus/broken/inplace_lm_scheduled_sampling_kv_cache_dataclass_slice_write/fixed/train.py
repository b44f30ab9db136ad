"""Decoder-only LM trained with scheduled sampling on a toy arithmetic-sequence language.
Because the model's own predictions are fed back during training, the sequence is unrolled
token by token, with a preallocated key/value cache so each step only projects the new
token."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, MAX_LEN = 16, 32, 10


@dataclass
class KVCache:
    keys: torch.Tensor
    values: torch.Tensor
    length: int = 0

    @classmethod
    def empty(cls, batch, max_len, dim):
        return cls(torch.zeros(batch, 0, dim), torch.zeros(batch, 0, dim))

    def append(self, k, v):
        self.keys = torch.cat([self.keys, k.unsqueeze(1)], dim=1)
        self.values = torch.cat([self.values, v.unsqueeze(1)], dim=1)
        self.length += 1
        return self.keys, self.values


class IncrementalDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(MAX_LEN, DIM)
        self.q, self.k, self.v = nn.Linear(DIM, DIM), nn.Linear(DIM, DIM), nn.Linear(DIM, DIM)
        self.ff = nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, 2 * DIM), nn.GELU(),
                                nn.Linear(2 * DIM, DIM))
        self.lm_head = nn.Linear(DIM, VOCAB)

    def step(self, token, t, cache):
        x = self.tok(token) + self.pos.weight[t]
        keys, values = cache.append(self.k(x), self.v(x))
        scores = (keys @ self.q(x).unsqueeze(-1)).squeeze(-1) / math.sqrt(DIM)
        ctx = (scores.softmax(-1).unsqueeze(-1) * values).sum(1)
        h = x + ctx
        return self.lm_head(h + self.ff(h))


def arithmetic_sequences(batch, gen):
    start = torch.randint(0, VOCAB, (batch, 1), generator=gen)
    stride = torch.randint(1, 4, (batch, 1), generator=gen)
    return (start + stride * torch.arange(MAX_LEN)) % VOCAB


def train(steps=4, batch=16, sample_prob=0.25):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    model = IncrementalDecoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        seqs = arithmetic_sequences(batch, gen)
        cache = KVCache.empty(batch, MAX_LEN, DIM)
        token, losses = seqs[:, 0], []
        for t in range(MAX_LEN - 1):
            logits = model.step(token, t, cache)
            losses.append(F.cross_entropy(logits, seqs[:, t + 1]))
            use_model = torch.rand(batch, generator=gen) < sample_prob
            token = torch.where(use_model, logits.argmax(-1), seqs[:, t + 1])
        loss = torch.stack(losses).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    train()
