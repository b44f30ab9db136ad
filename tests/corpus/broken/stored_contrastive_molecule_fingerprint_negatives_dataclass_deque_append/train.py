"""Contrastive pre-training of a molecular fingerprint encoder.

Two bit-dropout views of each fingerprint are positives; keys from the
last few batches are kept in a small FIFO bank as extra negatives.
"""
from collections import deque
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class NegativeBank:
    max_batches: int = 3
    queue: deque = field(default_factory=deque)

    def negatives(self):
        if not self.queue:
            return None
        return torch.cat(list(self.queue), dim=0)


@dataclass
class Config:
    n_bits: int = 64
    emb: int = 16
    batch: int = 8
    steps: int = 6
    temperature: float = 0.2
    drop: float = 0.15


def bit_dropout(fp, p, g):
    keep = (torch.rand(fp.shape, generator=g) > p).float()
    return fp * keep


def info_nce(q, k, extra, temperature):
    q = F.normalize(q, dim=-1)
    k = F.normalize(k, dim=-1)
    logits = q @ k.t()
    if extra is not None:
        logits = torch.cat([logits, q @ F.normalize(extra, dim=-1).t()], dim=1)
    targets = torch.arange(q.shape[0])
    return F.cross_entropy(logits / temperature, targets)


def train(cfg):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    library = (torch.rand(48, cfg.n_bits, generator=g) < 0.2).float()
    encoder = nn.Sequential(nn.Linear(cfg.n_bits, 32), nn.ReLU(), nn.Linear(32, cfg.emb))
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-2)
    bank = NegativeBank()
    for step in range(cfg.steps):
        idx = torch.randint(0, library.shape[0], (cfg.batch,), generator=g)
        fp = library[idx]
        q = encoder(bit_dropout(fp, cfg.drop, g))
        k = encoder(bit_dropout(fp, cfg.drop, g))
        loss = info_nce(q, k, bank.negatives(), cfg.temperature)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        bank.queue.append(k)
        if len(bank.queue) > bank.max_batches:
            bank.queue.popleft()
        print(f"step {step} loss {loss.item():.4f} bank {len(bank.queue)}")


if __name__ == "__main__":
    train(Config())
