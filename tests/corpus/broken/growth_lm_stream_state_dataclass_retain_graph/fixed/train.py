"""Streaming next-token model over one long token stream, read chunk by chunk. Besides
the current tokens the model sees a leaky "cache" context: a running average of the
embeddings of everything read so far, kept in a StreamState dataclass between chunks.
retain_graph=True was added when the second chunk's backward failed."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM, BATCH, CHUNK, DECAY = 20, 16, 4, 9, 0.8


@dataclass
class StreamState:
    context: torch.Tensor
    tokens_seen: int = 0


class CacheLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.mix = nn.Linear(2 * DIM, DIM)
        self.out = nn.Linear(DIM, VOCAB)

    def forward(self, tokens, context):
        emb = self.embed(tokens)
        ctx = context[:, None].expand(-1, tokens.shape[1], -1)
        logits = self.out(torch.tanh(self.mix(torch.cat([emb, ctx], dim=-1))))
        new_context = DECAY * context + (1 - DECAY) * emb.mean(dim=1)
        return logits, new_context


def train_chunk(model, optimizer, state, chunk):
    inputs, targets = chunk[:, :-1], chunk[:, 1:]
    logits, state.context = model(inputs, state.context.detach())
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    state.tokens_seen += inputs.numel()
    return loss.item()


# a stream with a repeating motif plus noise tokens
motif = torch.tensor([3, 7, 1, 12, 5, 9])
stream = motif.repeat(BATCH, 20)
noise = torch.rand(stream.shape) < 0.15
stream[noise] = torch.randint(0, VOCAB, (int(noise.sum()),))

model = CacheLM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
state = StreamState(context=torch.zeros(BATCH, DIM))
for i in range(10):
    chunk = stream[:, i * (CHUNK - 1):i * (CHUNK - 1) + CHUNK]
    loss = train_chunk(model, optimizer, state, chunk)
    print(f"chunk {i} loss {loss:.4f} tokens seen {state.tokens_seen}")
