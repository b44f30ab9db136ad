"""Bengio-style neural n-gram character language model: the previous CONTEXT characters
are embedded, concatenated and passed through a tanh hidden layer. The training step is
wrapped by a small logging decorator that keeps a running average of the loss."""
import functools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = ("the quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat "
        "and the bird sings in the old oak tree by the river bank ") * 3
CONTEXT = 4
chars = sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in TEXT])


class NGramLM(nn.Module):
    def __init__(self, vocab, context=CONTEXT, emb=12, hidden=48, p_drop=0.2):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.hidden = nn.Linear(context * emb, hidden)
        self.out = nn.Linear(hidden, vocab)
        self.p_drop = p_drop

    def forward(self, ctx):
        e = self.embed(ctx).flatten(1)
        h = torch.tanh(self.hidden(e))
        h = F.dropout(h, self.p_drop, self.training)
        return self.out(h)


def log_every(n):
    def decorate(step_fn):
        @functools.wraps(step_fn)
        def wrapper(*args, **kwargs):
            loss = step_fn(*args, **kwargs)
            wrapper.calls += 1
            wrapper.avg += (loss - wrapper.avg) / wrapper.calls
            if wrapper.calls % n == 0:
                print(f"step {wrapper.calls} avg loss {wrapper.avg:.4f} "
                      f"ppl {math.exp(wrapper.avg):.2f}")
            return loss
        wrapper.calls, wrapper.avg = 0, 0.0
        return wrapper
    return decorate


@log_every(2)
def train_step(model, optimizer, ctx, target):
    logits = model(ctx)
    loss = F.cross_entropy(logits, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def batches(batch_size, gen):
    starts = torch.randint(0, len(data) - CONTEXT - 1, (batch_size,), generator=gen)
    ctx = torch.stack([data[s:s + CONTEXT] for s in starts.tolist()])
    return ctx, data[starts + CONTEXT]


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = NGramLM(len(chars))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(6):
        train_step(model, optimizer, *batches(32, gen))
