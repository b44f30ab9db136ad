"""Watches the embedding norms of a few-shot encoder to catch representation collapse."""


class EmbeddingMonitor:
    def __init__(self, module, collapse_below=1e-3):
        self.norms = []
        self.collapse_below = collapse_below
        self.handle = module.register_forward_hook(self._record)

    def _record(self, module, inputs, output):
        snapshot = output.detach()
        self.norms.append(snapshot.norm(dim=-1).mean().item())

    def collapsed(self):
        return bool(self.norms) and self.norms[-1] < self.collapse_below

    def close(self):
        self.handle.remove()
