"""Decoder LM trained with scheduled sampling, unrolled token by token with a key/value cache
that grows by concatenation. Padding positions are masked by writing -inf into the raw
attention scores in place, and the logits are temperature-scaled in place before the loss."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, MAX_LEN, PAD = 16, 32, 10, 0


@dataclass
class KVCache:
    keys: torch.Tensor
    values: torch.Tensor
    pad: torch.Tensor

    @classmethod
    def empty(cls, batch, dim):
        return cls(torch.zeros(batch, 0, dim), torch.zeros(batch, 0, dim),
                   torch.zeros(batch, 0, dtype=torch.bool))

    def append(self, k, v, is_pad):
        self.keys = torch.cat([self.keys, k.unsqueeze(1)], dim=1)
        self.values = torch.cat([self.values, v.unsqueeze(1)], dim=1)
        self.pad = torch.cat([self.pad, is_pad.unsqueeze(1)], dim=1)
        return self.keys, self.values, self.pad


class IncrementalDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(MAX_LEN, DIM)
        self.q, self.k, self.v = nn.Linear(DIM, DIM), nn.Linear(DIM, DIM), nn.Linear(DIM, DIM)
        self.ff = nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, 2 * DIM), nn.GELU(),
                                nn.Linear(2 * DIM, DIM))
        self.lm_head = nn.Linear(DIM, VOCAB)

    def step(self, token, t, cache, temperature):
        x = self.tok(token) + self.pos.weight[t]
        keys, values, pad = cache.append(self.k(x), self.v(x), token == PAD)
        scores = (keys @ self.q(x).unsqueeze(-1)).squeeze(-1) / math.sqrt(DIM)
        scores.masked_fill_(pad & ~pad.all(dim=1, keepdim=True), float("-inf"))
        ctx = (scores.softmax(-1).unsqueeze(-1) * values).sum(1)
        h = x + ctx
        logits = self.lm_head(h + self.ff(h))
        logits.div_(temperature)
        return logits


def sequences(batch, gen):
    start = torch.randint(1, VOCAB, (batch, 1), generator=gen)
    stride = torch.randint(1, 4, (batch, 1), generator=gen)
    seqs = 1 + (start + stride * torch.arange(MAX_LEN)) % (VOCAB - 1)
    lengths = torch.randint(6, MAX_LEN + 1, (batch, 1), generator=gen)
    return seqs.masked_fill(torch.arange(MAX_LEN) >= lengths, PAD)


def train(steps=4, batch=16, sample_prob=0.25, temperature=1.5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    model = IncrementalDecoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        seqs = sequences(batch, gen)
        cache = KVCache.empty(batch, DIM)
        token, losses = seqs[:, 0], []
        for t in range(MAX_LEN - 1):
            logits = model.step(token, t, cache, temperature)
            losses.append(F.cross_entropy(logits, seqs[:, t + 1], ignore_index=PAD))
            use_model = torch.rand(batch, generator=gen) < sample_prob
            token = torch.where(use_model & (seqs[:, t + 1] != PAD), logits.argmax(-1),
                                seqs[:, t + 1])
        loss = torch.stack(losses).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
