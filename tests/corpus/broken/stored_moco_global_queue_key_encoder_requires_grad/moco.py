"""Momentum-contrast helpers. The negative-key queue is module state so that the image and
the audio pretraining scripts can share one implementation."""
import copy

import torch
import torch.nn.functional as F

QUEUE_SIZE = 32
_QUEUE = None


def init_queue(dim):
    global _QUEUE
    _QUEUE = F.normalize(torch.randn(QUEUE_SIZE, dim), dim=1)


def negatives():
    return _QUEUE


def enqueue(keys):
    global _QUEUE
    _QUEUE = torch.cat([keys, _QUEUE], dim=0)[:QUEUE_SIZE]


def make_key_encoder(query_encoder):
    return copy.deepcopy(query_encoder)


def encode_keys(key_encoder, views):
    return F.normalize(key_encoder(views), dim=1)


@torch.no_grad()
def momentum_update(query_encoder, key_encoder, m=0.99):
    for p_q, p_k in zip(query_encoder.parameters(), key_encoder.parameters()):
        p_k.mul_(m).add_(p_q, alpha=1 - m)
