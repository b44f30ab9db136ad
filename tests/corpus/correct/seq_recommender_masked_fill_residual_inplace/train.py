"""SASRec-style next-item recommender. The forward uses several in-place writes, all on
tensors that no backward formula saved: scaling the embedding lookup, adding positions,
masking the attention scores before the softmax, the ReLU on a Linear output, the residual
add into the feed-forward output, and blocking the padding item in the logits. After each
optimizer step the item embeddings are renormalised in place under torch.no_grad()."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, D_MODEL, SEQ_LEN, PAD = 30, 16, 8, 0


class CausalBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.norm1 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)
        self.norm2 = nn.LayerNorm(d)

    def forward(self, x, pad_mask):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = (q @ k.transpose(1, 2)) / math.sqrt(x.size(-1))
        causal = torch.ones(x.size(1), x.size(1), dtype=torch.bool).triu(1)
        scores.masked_fill_(causal | pad_mask[:, None, :], -1e9)
        h = self.norm1(x + torch.softmax(scores, dim=-1) @ v)
        f = self.fc2(torch.relu_(self.fc1(h)))
        f += h
        return self.norm2(f)


class SASRec(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, D_MODEL, padding_idx=PAD)
        self.pos_emb = nn.Embedding(SEQ_LEN, D_MODEL)
        self.blocks = nn.ModuleList([CausalBlock(D_MODEL), CausalBlock(D_MODEL)])

    def forward(self, seq):
        x = self.item_emb(seq)
        x *= math.sqrt(D_MODEL)
        x += self.pos_emb(torch.arange(seq.size(1)))
        pad_mask = seq == PAD
        for block in self.blocks:
            x = block(x, pad_mask)
        logits = x @ self.item_emb.weight.t()
        logits[..., PAD] = -1e9
        return logits


def make_sessions(n):
    # users walk through the catalogue in steps of 1-3 items; short sessions are left-padded
    start = torch.randint(1, N_ITEMS, (n, 1))
    steps = torch.randint(1, 4, (n, SEQ_LEN + 1)).cumsum(1)
    items = (start + steps - 1) % (N_ITEMS - 1) + 1
    lengths = torch.randint(4, SEQ_LEN + 1, (n,))
    items[:, :-1][torch.arange(SEQ_LEN)[None, :] < (SEQ_LEN - lengths)[:, None]] = PAD
    return items[:, :-1], items[:, 1:]


torch.manual_seed(0)
model = SASRec()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
seqs, targets = make_sessions(64)
for epoch in range(3):
    for start in range(0, 64, 32):
        seq, tgt = seqs[start:start + 32], targets[start:start + 32]
        logits = model(seq)
        keep = seq != PAD
        loss = F.cross_entropy(logits[keep], tgt[keep])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            model.item_emb.weight.renorm_(2, 0, 2.0)
    print(f"epoch {epoch} loss {loss.item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
