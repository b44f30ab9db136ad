"""Metric learning for product images with a cross-batch memory (XBM).

Embeddings of past batches are kept in a fixed-size ring buffer (detached, written in
place under no_grad) together with their labels. After a warm-up, the contrastive loss
of the current batch is computed against the batch itself and the memory; gradients only
flow through the current batch's embeddings.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(24)
EMB, MEMORY, N_CLASSES, WARMUP = 12, 48, 6, 2


class CrossBatchMemory:
    def __init__(self, size, dim):
        self.feats = torch.zeros(size, dim)
        self.labels = torch.full((size,), -1, dtype=torch.long)
        self.ptr = 0

    @torch.no_grad()
    def enqueue(self, feats, labels):
        idx = (self.ptr + torch.arange(len(labels))) % len(self.labels)
        self.feats.index_copy_(0, idx, feats.detach())
        self.labels.index_copy_(0, idx, labels)
        self.ptr = int(idx[-1] + 1) % len(self.labels)

    def filled(self):
        valid = self.labels >= 0
        return self.feats[valid], self.labels[valid]


def contrastive(anchors, a_labels, refs, r_labels, margin=0.5, exclude_self=False):
    sim = anchors @ refs.T
    pos = a_labels[:, None] == r_labels[None, :]
    if exclude_self:
        pos = pos & ~torch.eye(len(a_labels), len(r_labels), dtype=torch.bool)
    neg = a_labels[:, None] != r_labels[None, :]
    pos_loss = ((1 - sim) * pos).sum() / pos.sum().clamp(min=1)
    neg_loss = (F.relu(sim - margin) * neg).sum() / neg.sum().clamp(min=1)
    return pos_loss + neg_loss


encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
                        nn.Flatten(), nn.Linear(32, EMB))
opt = torch.optim.Adam(encoder.parameters(), lr=5e-3)
xbm = CrossBatchMemory(MEMORY, EMB)
prototypes = torch.randn(N_CLASSES, 3, 6, 6)

for step in range(7):
    labels = torch.randint(0, N_CLASSES, (16,))
    images = prototypes[labels] + 0.4 * torch.randn(16, 3, 6, 6)
    emb = F.normalize(encoder(images), dim=1)
    loss = contrastive(emb, labels, emb, labels, exclude_self=True)
    if step >= WARMUP:
        mem_feats, mem_labels = xbm.filled()
        loss = loss + contrastive(emb, labels, mem_feats, mem_labels)
    xbm.enqueue(emb, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.6f} memory used {int((xbm.labels >= 0).sum())}")
print(f"memory checksum {xbm.feats.sum().item():.6f}")
print(f"checksum {sum(p.sum().item() for p in encoder.parameters()):.6f}")
