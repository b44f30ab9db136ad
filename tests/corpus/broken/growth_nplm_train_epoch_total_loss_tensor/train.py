"""Bengio-style neural probabilistic language model (fixed context window -> embeddings
-> MLP -> next word) on a toy corpus generated from a tiny grammar. train_epoch() returns
the mean training loss, used for the perplexity line and the plateau check."""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

CONTEXT = 3
SUBJECTS = ["the cat", "a dog", "my friend", "the teacher"]
VERBS = ["sees", "likes", "follows", "helps"]
OBJECTS = ["the ball", "a bird", "the garden", "her brother"]


def build_corpus(n_sentences, rng):
    words = []
    for _ in range(n_sentences):
        words += f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} .".split()
    vocab = sorted(set(words))
    return [vocab.index(w) for w in words], vocab


class NPLM(nn.Module):
    def __init__(self, vocab_size, emb=16, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb)
        self.hidden = nn.Linear(CONTEXT * emb, hidden)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, ctx):
        x = self.emb(ctx).flatten(1)
        return self.out(torch.tanh(self.hidden(x)))


def batches(ids, batch_size):
    ctx = torch.stack([ids[i:i + CONTEXT] for i in range(len(ids) - CONTEXT)])
    target = ids[CONTEXT:]
    for start in range(0, len(target), batch_size):
        yield ctx[start:start + batch_size], target[start:start + batch_size]


def train_epoch(model, optimizer, ids, batch_size):
    model.train()
    total_loss, n_batches = 0.0, 0
    for ctx, target in batches(ids, batch_size):
        loss = F.cross_entropy(model(ctx), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += loss
        n_batches += 1
    return total_loss / n_batches


if __name__ == "__main__":
    torch.manual_seed(0)
    ids, vocab = build_corpus(60, random.Random(0))
    ids = torch.tensor(ids)
    model = NPLM(len(vocab))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
    best = float("inf")
    for epoch in range(2):
        mean_loss = train_epoch(model, optimizer, ids, batch_size=48)
        print(f"epoch {epoch} loss {mean_loss:.4f} ppl {math.exp(mean_loss):.2f}")
        if mean_loss > best - 1e-3:
            print("plateau: consider lowering the learning rate")
        best = min(best, mean_loss)
