import torch
import torch.nn as nn


class TurnTracker(nn.Module):
    """Tracks the dialogue state turn by turn with a gated running context."""

    def __init__(self, vocab, dim, n_slots):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.keep_logit = nn.Parameter(torch.zeros(dim))
        self.slot_head = nn.Linear(dim, n_slots)

    def step(self, context, tokens):
        utter = self.emb(tokens).mean(dim=1)
        keep = torch.sigmoid(self.keep_logit)
        return torch.tanh(keep * context + utter)

    def classify(self, context):
        return self.slot_head(context)
