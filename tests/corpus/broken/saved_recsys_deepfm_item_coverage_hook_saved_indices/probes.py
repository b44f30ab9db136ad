"""Training probes for the CTR models: lightweight objects hooked onto modules."""
import torch


class ItemCoverageProbe:
    """Counts how much of the item catalogue the training batches have touched so far."""

    def __init__(self, embedding, n_items):
        self.n_items = n_items
        self.seen = torch.zeros(n_items, dtype=torch.bool)
        self.last_lookup = None
        self.handle = embedding.register_forward_hook(self._on_forward)

    def _on_forward(self, module, inputs, output):
        if module.training:
            self.last_lookup = output

    def update(self):
        ids = self.last_lookup.grad_fn._saved_indices
        self.seen[ids.unique()] = True
        return self.seen.float().mean().item()

    def close(self):
        self.handle.remove()
