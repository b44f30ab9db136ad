"""Cross-batch negatives for InfoNCE: a fixed-size bank of past (detached) embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryBankNCE(nn.Module):
    """InfoNCE where the negatives are the current batch's keys plus a ring buffer of keys
    from earlier batches. The newest keys are written into the bank at the end of forward."""

    def __init__(self, dim, size=128, temperature=0.2):
        super().__init__()
        self.temperature = temperature
        self.register_buffer("bank", F.normalize(torch.randn(size, dim), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def _enqueue(self, keys):
        n = keys.shape[0]
        start = int(self.ptr)
        idx = torch.arange(start, start + n) % self.bank.shape[0]
        self.bank[idx] = keys.detach()
        self.ptr.fill_((start + n) % self.bank.shape[0])

    def forward(self, q, k):
        q = F.normalize(q, dim=1)
        k = F.normalize(k, dim=1)
        in_batch = q @ k.t()
        from_bank = torch.einsum("nc,mc->nm", q, self.bank)
        logits = torch.cat([in_batch, from_bank], dim=1) / self.temperature
        targets = torch.arange(q.shape[0])
        loss = F.cross_entropy(logits, targets)
        self._enqueue(k)
        return loss
