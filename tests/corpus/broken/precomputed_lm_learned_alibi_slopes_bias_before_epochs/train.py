"""Tiny causal transformer LM on a synthetic copy-with-offset language, with ALiBi-style
attention biases whose per-head slopes are learned. The bias only depends on the sequence
length, so it is built once before training and handed to every forward."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, HEADS, SEQ = 20, 32, 4, 16


class LearnedALiBi(nn.Module):
    def __init__(self, heads):
        super().__init__()
        init = torch.tensor([2 ** (-8 * (h + 1) / heads) for h in range(heads)])
        self.log_slopes = nn.Parameter(init.log())

    def forward(self, length):
        pos = torch.arange(length)
        dist = (pos[None, :] - pos[:, None]).clamp(max=0).float()
        causal = torch.full((length, length), float("-inf")).triu(1)
        return self.log_slopes.exp()[:, None, None] * dist + causal


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.out = nn.Linear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, x, bias):
        b, t, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, HEADS, DIM // HEADS).unbind(2)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(DIM // HEADS) + bias
        att = scores.softmax(-1) @ v
        x = x + self.out(att.transpose(1, 2).reshape(b, t, DIM))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.alibi = LearnedALiBi(HEADS)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.ln_f = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, VOCAB, bias=False)

    def forward(self, tokens, bias):
        x = self.tok(tokens)
        for block in self.blocks:
            x = block(x, bias)
        return self.head(self.ln_f(x))


def make_batches(n_batches, batch, gen):
    out = []
    for _ in range(n_batches):
        first = torch.randint(1, VOCAB, (batch, SEQ // 2), generator=gen)
        seq = torch.cat([first, (first + 3) % VOCAB], dim=1)
        out.append(seq)
    return out


def train(epochs=2, n_batches=3):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    batches = make_batches(n_batches, 8, gen)
    attn_bias = model.alibi(SEQ - 1)
    for epoch in range(epochs):
        total = 0.0
        for seq in batches:
            logits = model(seq[:, :-1], attn_bias)
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), seq[:, 1:].reshape(-1))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / n_batches:.4f} "
              f"slopes {model.alibi.log_slopes.exp().tolist()[0]:.4f}")
    return model


if __name__ == "__main__":
    train()
