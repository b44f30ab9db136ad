"""Non-parametric instance discrimination memory (Wu et al., 2018): one L2-normalised slot per
training example, moved towards the newest embedding of that example with momentum."""
import torch
import torch.nn.functional as F


class MemoryBankHook:
    """Forward hook for the embedding head. Whenever the head runs in training mode on a batch,
    the slots of the examples in that batch are refreshed with the new embeddings, so the bank
    always holds the most recent view of every example."""

    def __init__(self, n_items, dim, momentum=0.5):
        self.bank = F.normalize(torch.randn(n_items, dim), dim=1)
        self.momentum = momentum
        self.batch_index = None
        self.updates = 0

    def set_batch(self, index):
        self.batch_index = index

    def __call__(self, module, inputs, output):
        if not module.training or self.batch_index is None:
            return
        fresh = F.normalize(output.detach(), dim=1)
        mixed = self.momentum * self.bank[self.batch_index] + (1 - self.momentum) * fresh
        self.bank = self.bank.index_copy(0, self.batch_index, F.normalize(mixed, dim=1))
        self.updates += 1

    def logits(self, features, temperature):
        """Scores of every example in the batch against every slot: the slot of the example
        itself is the positive class, all others are negatives."""
        return F.normalize(features, dim=1) @ self.bank.t() / temperature

    def spread(self):
        sim = self.bank @ self.bank.t()
        n = sim.shape[0]
        return (sim.sum() - sim.diagonal().sum()).item() / (n * (n - 1))
