"""Causal LM fine-tuning with gradient accumulation over padded micro-batches.

Micro-batches have different numbers of real (non-pad) tokens, so each micro-batch loss is
a token *sum* divided by the token count of the whole accumulation window; backward runs
once per micro-batch and the optimizer steps once per window. The running loss is kept
as a Python float.
"""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(19)
VOCAB, PAD, ACCUM, MICRO = 24, 0, 4, 3


class TinyLM(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim, padding_idx=PAD)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.proj = nn.Linear(dim, VOCAB)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.proj(out)


@dataclass
class Stats:
    tokens_seen: int = 0
    window_losses: list = field(default_factory=list)


def micro_batch():
    lengths = torch.randint(3, 12, (MICRO,))
    seqs = torch.full((MICRO, 12), PAD)
    for i, n in enumerate(lengths.tolist()):
        start = torch.randint(1, VOCAB, (1,)).item()
        seqs[i, :n] = (start + torch.arange(n)) % (VOCAB - 1) + 1
    return seqs


def train(n_windows=3):
    model = TinyLM()
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.01)
    stats = Stats()
    for window in range(n_windows):
        batches = [micro_batch() for _ in range(ACCUM)]
        window_tokens = sum(int((b[:, 1:] != PAD).sum()) for b in batches)
        opt.zero_grad(set_to_none=True)
        running = 0.0
        for tokens in batches:
            logits = model(tokens[:, :-1])
            loss_sum = F.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1),
                                       ignore_index=PAD, reduction="sum")
            (loss_sum / window_tokens).backward()
            running += loss_sum.item()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        stats.tokens_seen += window_tokens
        stats.window_losses.append(running / window_tokens)
        print(f"window {window} tokens {window_tokens} loss/token {running / window_tokens:.6f} "
              f"grad norm {grad_norm.item():.6f}")
    return model, stats


if __name__ == "__main__":
    model, stats = train()
    print(f"tokens seen {stats.tokens_seen}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
