"""Streaming CTC acoustic model: a unidirectional LSTM over log-mel frames, run chunk by chunk."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StreamingEncoder(nn.Module):
    def __init__(self, n_mels=12, hidden=32, vocab=8):
        super().__init__()
        self.subsample = nn.Conv1d(n_mels, hidden, kernel_size=2, stride=2)
        self.lstm = nn.LSTM(hidden, hidden, num_layers=2, batch_first=True)
        self.ctc_head = nn.Linear(hidden, vocab)


def encode_chunk(encoder, mels, state):
    """Encodes one chunk (batch, frames, n_mels) starting from `state` (or None).

    Returns the CTC log-probabilities laid out as (time, batch, vocab) and the LSTM state to
    pass to the next chunk of the same utterances.
    """
    x = F.gelu(encoder.subsample(mels.transpose(1, 2))).transpose(1, 2)
    out, state = encoder.lstm(x, state)
    log_probs = encoder.ctc_head(out).log_softmax(-1).transpose(0, 1)
    return log_probs, state
