"""Emotion recognition in conversation: each utterance is encoded on its own, then a dialogue
context GRU cell folds it (with the speaker) into a running context vector, and the emotion
of the utterance is read from the utterance and the context together."""
from typing import NamedTuple, Optional

import torch
import torch.nn as nn


class TurnOutput(NamedTuple):
    logits: torch.Tensor
    context: torch.Tensor


class DialogueTracker(nn.Module):
    def __init__(self, vocab, n_speakers, n_emotions, dim=16):
        super().__init__()
        self.tokens = nn.Embedding(vocab, dim)
        self.utterance_rnn = nn.GRU(dim, dim, batch_first=True)
        self.speakers = nn.Embedding(n_speakers, dim)
        self.context_cell = nn.GRUCell(2 * dim, dim)
        self.emotion_head = nn.Sequential(nn.Linear(2 * dim, dim), nn.Tanh(), nn.Linear(dim, n_emotions))


def tracker_step(model: DialogueTracker, token_ids, speaker_ids, context: Optional[torch.Tensor]):
    """One turn for a batch of parallel dialogues; returns the logits and the updated context."""
    _, h = model.utterance_rnn(model.tokens(token_ids))
    utterance = h[-1]
    context = model.context_cell(torch.cat([utterance, model.speakers(speaker_ids)], dim=-1), context)
    logits = model.emotion_head(torch.cat([utterance, context], dim=-1))
    return TurnOutput(logits, context)
