"""Contrastive learner with a MoCo-style queue of negative keys kept in a buffer.
Keys come from the same (trainable) encoder as the queries."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class QueueContrast(nn.Module):
    def __init__(self, in_dim=20, dim=16, K=32, T=0.1):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.K, self.T = K, T
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    def _dequeue_and_enqueue(self, keys):
        n = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + n] = keys.T
        self.queue_ptr[0] = (ptr + n) % self.K

    def forward(self, x_q, x_k):
        q = F.normalize(self.encoder(x_q), dim=1)
        k = F.normalize(self.encoder(x_k), dim=1)
        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ self.queue.clone()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return F.cross_entropy(logits, labels)
