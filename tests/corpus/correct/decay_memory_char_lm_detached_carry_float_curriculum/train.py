"""Character-level language model with a learned-decay linear memory, trained with
truncated BPTT over one long stream: the memory is carried from chunk to chunk but
detached at every chunk boundary. A curriculum lengthens the chunks once the recent loss
(kept as Python floats) stops improving, and the pass ends with a perplexity computed from
the detached per-token losses."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
TEXT = "a stitch in time saves nine. " * 20
VOCAB = sorted(set(TEXT))
DIM, HIDDEN, BATCH = 16, 48, 4


class DecayMemoryLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(len(VOCAB), DIM)
        self.decay_logit = nn.Parameter(torch.linspace(-1.0, 3.0, DIM))
        self.readout = nn.Sequential(
            nn.Linear(2 * DIM, HIDDEN), nn.GELU(), nn.Linear(HIDDEN, len(VOCAB)))

    def forward(self, tokens, memory):
        emb = self.embed(tokens)
        decay = torch.sigmoid(self.decay_logit)
        states = []
        for t in range(tokens.shape[1]):
            memory = decay * memory + (1 - decay) * emb[:, t]
            states.append(memory)
        logits = self.readout(torch.cat([emb, torch.stack(states, dim=1)], dim=-1))
        return logits, memory


def train(model, optimizer, stream, n_chunks, chunk_len=6):
    memory = torch.zeros(BATCH, DIM)
    losses, token_nll = [], []
    pos = 0
    for i in range(n_chunks):
        chunk = stream[:, pos:pos + chunk_len + 1]
        pos += chunk_len
        logits, memory = model(chunk[:, :-1], memory.detach())
        nll = F.cross_entropy(logits.reshape(-1, len(VOCAB)), chunk[:, 1:].reshape(-1),
                              reduction="none")
        loss = nll.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        token_nll.append(nll.detach())
        if len(losses) >= 3 and losses[-1] > min(losses[-3:-1]) - 0.01:
            chunk_len = min(chunk_len + 2, 14)
        print(f"chunk {i} len {chunk.shape[1] - 1} loss {losses[-1]:.4f}")
    return math.exp(torch.cat(token_nll).mean().item())


ids = torch.tensor([VOCAB.index(c) for c in TEXT])
stream = ids[:len(ids) // BATCH * BATCH].view(BATCH, -1)
model = DecayMemoryLM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
ppl = train(model, optimizer, stream, n_chunks=8)
checksum = sum(p.sum().item() for p in model.parameters())
print(f"pass perplexity {ppl:.3f} param checksum {checksum:.6f}")
