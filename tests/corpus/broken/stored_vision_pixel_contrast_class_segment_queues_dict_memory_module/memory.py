"""Per-class segment memory for pixel-to-region contrast (semantic segmentation): for every
class present in an image, the mean embedding of its pixels (a "segment" embedding) is pushed
onto that class's FIFO queue; the queues give each anchor pixel positives and negatives from
earlier images."""
import torch
import torch.nn.functional as F


class SegmentQueues:
    def __init__(self, n_classes, dim, size):
        self.size = size
        self.queues = {c: torch.zeros(0, dim) for c in range(n_classes)}

    def __len__(self):
        return sum(len(q) for q in self.queues.values())

    def enqueue(self, embeddings, labels):
        """embeddings: (batch, dim, H, W); labels: (batch, H, W)."""
        for b in range(embeddings.size(0)):
            for c in labels[b].unique().tolist():
                mask = labels[b] == c
                segment = F.normalize(embeddings[b][:, mask].mean(dim=1), dim=0)
                self.queues[c] = torch.cat([segment[None], self.queues[c]])[: self.size]

    def bank(self):
        feats = torch.cat([q for q in self.queues.values()])
        labels = torch.cat([torch.full((len(q),), c, dtype=torch.long) for c, q in self.queues.items()])
        return feats, labels
