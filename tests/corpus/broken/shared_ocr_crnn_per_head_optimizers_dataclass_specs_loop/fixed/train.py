"""Line recogniser with two heads, each with its own optimizer and learning rate."""
from dataclasses import dataclass
from typing import Callable

import torch
import torch.nn as nn
import torch.nn.functional as F

from model import CTCHead, LineEncoder, ScriptHead

torch.manual_seed(7)
N_CHARS, N_SCRIPTS, DIM = 10, 3, 24


@dataclass
class HeadSpec:
    name: str
    module: nn.Module
    loss_fn: Callable
    optimizer: torch.optim.Optimizer
    weight: float = 1.0


def ctc_loss(log_probs, batch):
    t, b = log_probs.shape[1], log_probs.shape[0]
    return F.ctc_loss(log_probs.transpose(0, 1), batch["labels"],
                      torch.full((b,), t, dtype=torch.long), batch["label_lens"])


def script_loss(logits, batch):
    return F.cross_entropy(logits, batch["script"])


def synthetic_lines(n_batches, b=4):
    for _ in range(n_batches):
        lens = torch.randint(2, 5, (b,))
        yield {"images": torch.rand(b, 1, 8, 32),
               "labels": torch.randint(1, N_CHARS + 1, (int(lens.sum()),)),
               "label_lens": lens,
               "script": torch.randint(0, N_SCRIPTS, (b,))}


encoder = LineEncoder(DIM)
enc_opt = torch.optim.Adam(encoder.parameters(), lr=2e-3)
ctc_head, script_head = CTCHead(DIM, N_CHARS), ScriptHead(DIM, N_SCRIPTS)
heads = [
    HeadSpec("ctc", ctc_head, ctc_loss, torch.optim.Adam(ctc_head.parameters(), lr=2e-3)),
    HeadSpec("script", script_head, script_loss, torch.optim.SGD(script_head.parameters(), lr=0.05), 0.5),
]

for step, batch in enumerate(synthetic_lines(4)):
    feats = encoder(batch["images"])
    enc_opt.zero_grad()
    logs = []
    losses = []
    for spec in heads:
        spec.optimizer.zero_grad()
        loss = spec.weight * spec.loss_fn(spec.module(feats), batch)
        losses.append(loss)
        logs.append(f"{spec.name} {loss.item():.4f}")
    # one backward through the shared encoder for all heads
    sum(losses).backward()
    for spec in heads:
        spec.optimizer.step()
    enc_opt.step()
    print(f"step {step} " + " ".join(logs))
