"""MoCo-v2 style pretraining of a small sensor-window encoder. The negatives live in a
QueueState dataclass that is passed around between the step functions."""
import copy
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

WINDOW, EMB, QUEUE_SIZE, BATCH, TAU, MOMENTUM = 24, 16, 64, 16, 0.2, 0.99


@dataclass
class QueueState:
    keys: torch.Tensor
    steps_seen: int = 0


def make_encoder():
    return nn.Sequential(nn.Linear(WINDOW, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                         nn.Linear(64, EMB))


def augment(x):
    scale = 1.0 + 0.1 * torch.randn(x.size(0), 1)
    return scale * x + 0.05 * torch.randn_like(x)


@torch.no_grad()
def momentum_update(query_enc, key_enc, m=MOMENTUM):
    for pq, pk in zip(query_enc.parameters(), key_enc.parameters()):
        pk.mul_(m).add_(pq, alpha=1.0 - m)


def enqueue(state, new_keys):
    state.keys = torch.cat([new_keys, state.keys], dim=0)[:QUEUE_SIZE]
    state.steps_seen += 1


def info_nce(q, k, state):
    pos = (q * k).sum(dim=1, keepdim=True)
    neg = q @ state.keys.t()
    logits = torch.cat([pos, neg], dim=1) / TAU
    return F.cross_entropy(logits, torch.zeros(q.size(0), dtype=torch.long))


def train(num_steps=5):
    torch.manual_seed(0)
    windows = torch.randn(num_steps, BATCH, WINDOW).cumsum(dim=2) * 0.1
    query_enc = make_encoder()
    key_enc = copy.deepcopy(query_enc)
    optimizer = torch.optim.SGD(query_enc.parameters(), lr=0.03, momentum=0.9)
    state = QueueState(keys=F.normalize(torch.randn(QUEUE_SIZE, EMB), dim=1))

    for step, x in enumerate(windows):
        q = F.normalize(query_enc(augment(x)), dim=1)
        momentum_update(query_enc, key_enc)
        k = F.normalize(key_enc(augment(x)), dim=1)
        loss = info_nce(q, k, state)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        enqueue(state, k)
        print(f"step {step} loss {loss.item():.4f} queue {state.keys.size(0)}")


if __name__ == "__main__":
    train()
