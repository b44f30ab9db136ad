"""SASRec-style next-item recommender: causal self-attention over a user's recent items,
trained with sampled negatives (BCE on positive vs. negative item scores)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_ITEMS, SEQ_LEN, DIM, BATCH = 50, 10, 32, 16


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, attn_dropout=0.1):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.attn_dropout = attn_dropout
        self.register_buffer("causal", torch.tril(torch.ones(SEQ_LEN, SEQ_LEN)).bool())

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / math.sqrt(x.size(-1))
        scores = scores.masked_fill(~self.causal, float("-inf"))
        attn = scores.softmax(dim=-1)
        attn = F.dropout(attn, p=self.attn_dropout, training=self.training, inplace=True)
        return self.out(attn @ v)


class SASRec(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS + 1, DIM, padding_idx=0)
        self.pos_emb = nn.Embedding(SEQ_LEN, DIM)
        self.attn = CausalSelfAttention(DIM)
        self.norm1, self.norm2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.ffn = nn.Sequential(nn.Linear(DIM, DIM), nn.ReLU(), nn.Linear(DIM, DIM))

    def forward(self, seq):
        h = self.item_emb(seq) + self.pos_emb.weight.unsqueeze(0)
        h = self.norm1(h + self.attn(h))
        return self.norm2(h + self.ffn(h))

    def score(self, hidden, items):
        return (hidden * self.item_emb(items)).sum(-1)


def sample_batch():
    start = torch.randint(1, N_ITEMS - SEQ_LEN, (BATCH, 1))
    seq = start + torch.arange(SEQ_LEN + 1)  # users browse items roughly in order
    return seq[:, :-1], seq[:, 1:], torch.randint(1, N_ITEMS + 1, (BATCH, SEQ_LEN))


model = SASRec()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(6):
    seq, pos, neg = sample_batch()
    hidden = model(seq)
    pos_logits, neg_logits = model.score(hidden, pos), model.score(hidden, neg)
    loss = (F.binary_cross_entropy_with_logits(pos_logits, torch.ones_like(pos_logits))
            + F.binary_cross_entropy_with_logits(neg_logits, torch.zeros_like(neg_logits)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    hit = (pos_logits > neg_logits).float().mean().item()
    print(f"step {step} loss {loss.item():.4f} pos>neg {hit:.3f}")
