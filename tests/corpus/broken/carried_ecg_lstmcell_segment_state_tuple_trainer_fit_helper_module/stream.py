"""Streaming beat classifier pieces shared by the training and the bedside scripts."""
import torch
import torch.nn as nn


class BeatEncoder(nn.Module):
    def __init__(self, n_leads=4, hidden=10, n_classes=3):
        super().__init__()
        self.hidden = hidden
        self.cell = nn.LSTMCell(n_leads, hidden)
        self.classifier = nn.Linear(hidden, n_classes)

    def initial_state(self, batch):
        h = torch.zeros(batch, self.hidden)
        return h, torch.zeros_like(h)


def run_segment(model, segment, state):
    """Feed a (B, T, leads) segment one sample at a time.

    Returns the rhythm logits at the end of the segment and the LSTM state,
    so the next segment of the same recording can pick up where this one stopped.
    """
    h, c = state
    for t in range(segment.shape[1]):
        h, c = model.cell(segment[:, t], (h, c))
    return model.classifier(h), (h, c)
