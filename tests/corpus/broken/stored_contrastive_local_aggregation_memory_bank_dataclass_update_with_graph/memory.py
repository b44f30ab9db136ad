"""Instance memory bank for Local Aggregation: one L2-normalised embedding per training
sample, refreshed with a momentum average each time the sample is seen, plus the k-means
cluster labels recomputed from the bank every epoch."""
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F


@dataclass
class MemoryBank:
    size: int
    dim: int
    momentum: float = 0.5
    bank: torch.Tensor = field(init=False)
    labels: torch.Tensor = field(init=False)

    def __post_init__(self):
        self.bank = F.normalize(torch.randn(self.size, self.dim), dim=1)
        self.labels = torch.zeros(self.size, dtype=torch.long)

    def update(self, indices, embeddings):
        mixed = self.momentum * self.bank[indices] + (1 - self.momentum) * embeddings
        self.bank = self.bank.index_copy(0, indices, F.normalize(mixed, dim=1))

    @torch.no_grad()
    def recluster(self, k, iters=5):
        centroids = self.bank[torch.randperm(self.size)[:k]].clone()
        for _ in range(iters):
            self.labels = (self.bank @ centroids.t()).argmax(1)
            for c in range(k):
                members = self.bank[self.labels == c]
                if len(members):
                    centroids[c] = F.normalize(members.mean(0), dim=0)
