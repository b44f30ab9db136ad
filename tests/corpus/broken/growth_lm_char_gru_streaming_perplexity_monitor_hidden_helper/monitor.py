"""Streaming validation for a recurrent LM: the held-out text is read as one continuous
stream, a chunk after every training step, and the hidden state is carried from chunk to
chunk so the model always sees its full left context."""
import math

import torch.nn.functional as F


class StreamingPerplexity:
    def __init__(self, stream, chunk_len):
        self.stream = stream
        self.chunk_len = chunk_len
        self.pos = 0
        self.hidden = None
        self.nll_sum = 0.0
        self.tokens = 0

    def update(self, model):
        end = self.pos + self.chunk_len + 1
        if end > self.stream.numel():
            self.pos, self.hidden = 0, None
            end = self.chunk_len + 1
        chunk = self.stream[self.pos:end].unsqueeze(0)
        logits, self.hidden = model(chunk[:, :-1], self.hidden)
        nll = F.cross_entropy(logits.reshape(-1, logits.size(-1)), chunk[:, 1:].reshape(-1), reduction="sum")
        self.nll_sum += nll.item()
        self.tokens += self.chunk_len
        self.pos = end - 1
        return math.exp(self.nll_sum / self.tokens)
