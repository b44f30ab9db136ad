"""Support set for nearest-neighbour contrastive learning (NNCLR): a FIFO of past embeddings
from which each embedding's nearest neighbour is taken as its positive."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SupportSet(nn.Module):
    def __init__(self, size, dim):
        super().__init__()
        self.register_buffer("bank", F.normalize(torch.randn(size, dim), dim=1))
        self.ptr = 0

    def nearest(self, z):
        idx = (z @ self.bank.t()).argmax(dim=1)
        return self.bank[idx]

    def enqueue(self, z):
        n = z.size(0)
        self.bank[self.ptr:self.ptr + n] = z.detach()
        self.ptr = (self.ptr + n) % self.bank.size(0)
