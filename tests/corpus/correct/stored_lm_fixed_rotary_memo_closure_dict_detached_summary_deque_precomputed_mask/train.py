"""Tiny rotary-attention LM with an auxiliary uniformity loss on sequence summaries.

* the rotary angle table comes from a fixed (non-trainable) frequency buffer,
  so memoising it per sequence length keeps no graph;
* the causal mask is built once, before the loop, from plain tensors;
* past sequence summaries used as negatives are stored detached.
"""
import math
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, SEQ = 24, 16, 8


def rotary_table(inv_freq):
    memo = {}

    def angles(seq_len):
        if seq_len not in memo:
            positions = torch.arange(seq_len, dtype=inv_freq.dtype)
            memo[seq_len] = torch.outer(positions, inv_freq)
        return memo[seq_len]

    return angles


def apply_rotary(x, theta):
    even, odd = x[..., 0::2], x[..., 1::2]
    cos, sin = theta.cos(), theta.sin()
    return torch.cat([even * cos - odd * sin, even * sin + odd * cos], dim=-1)


class RopeLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.lm_head = nn.Linear(DIM, VOCAB)
        self.summary = nn.Linear(DIM, DIM)
        self.register_buffer("inv_freq", 1.0 / (50 ** (torch.arange(0, DIM, 2).float() / DIM)))
        self.angles = rotary_table(self.inv_freq)

    def forward(self, tokens, mask):
        x = self.embed(tokens)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        theta = self.angles(tokens.shape[1])
        q, k = apply_rotary(q, theta), apply_rotary(k, theta)
        scores = (q @ k.transpose(1, 2) / math.sqrt(DIM)).masked_fill(~mask, float("-inf"))
        h = x + scores.softmax(-1) @ v
        return self.lm_head(h), self.summary(h.mean(dim=1))


def batches(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n):
        half = torch.randint(1, VOCAB, (4, SEQ // 2), generator=g)
        seq = torch.cat([half, half], dim=1)
        yield seq[:, :-1], seq[:, 1:]


def main():
    torch.manual_seed(0)
    model = RopeLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    mask = torch.ones(SEQ - 1, SEQ - 1).tril().bool()
    past = deque(maxlen=3)
    for step, (inp, tgt) in enumerate(batches(6)):
        logits, summ = model(inp, mask)
        lm_loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
        z = F.normalize(summ, dim=-1)
        negatives = torch.cat(list(past)) if past else z.new_zeros(0, DIM)
        sim = z @ torch.cat([z, negatives]).t() / 0.5
        self_pair = torch.eye(z.shape[0], sim.shape[1]).bool()
        aux = torch.logsumexp(sim.masked_fill(self_pair, float("-inf")), dim=1).mean()
        loss = lm_loss + 0.1 * aux
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        past.append(z.detach())
        print(f"step {step} lm {lm_loss.item():.4f} aux {aux.item():.4f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
