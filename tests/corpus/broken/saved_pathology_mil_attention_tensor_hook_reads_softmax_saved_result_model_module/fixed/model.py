import torch
import torch.nn as nn


class AttentionMIL(nn.Module):
    """Attention-based multiple-instance learning over the tiles of one slide (Ilse et al. style)."""

    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU())
        self.attn = nn.Sequential(nn.Linear(hidden, 16), nn.Tanh(), nn.Linear(16, 1))
        self.head = nn.Linear(hidden, n_classes)
        self.attention_log = []

    def forward(self, tiles):
        h = self.embed(tiles)                       # (n_tiles, hidden)
        scores = self.attn(h)                       # (n_tiles, 1)
        attn = torch.softmax(scores, dim=0)
        if self.training:
            scores.register_hook(self._attention_grad_probe(attn))
        return self.head((attn * h).sum(dim=0, keepdim=True))

    def _attention_grad_probe(self, attn):
        weights = attn.detach()

        def probe(grad):
            top_tile = int(weights.argmax())
            self.attention_log.append((top_tile, float(grad.norm())))
        return probe
