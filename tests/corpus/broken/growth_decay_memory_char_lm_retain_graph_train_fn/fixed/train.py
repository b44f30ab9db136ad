"""Character-level language model with a linear recurrence: a per-channel exponentially
decaying memory of the character embeddings (with a learned decay per channel, in the
spirit of RWKV/LRU-style models) feeds an MLP readout. The text is one long stream read in
chunks, and the memory is carried from chunk to chunk. retain_graph=True was added when
the second chunk raised "Trying to backward through the graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
TEXT = "the quick brown fox jumps over the lazy dog. " * 12
VOCAB = sorted(set(TEXT))
DIM, HIDDEN, BATCH, CHUNK = 16, 48, 4, 12


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


def train(model, optimizer, stream, n_chunks):
    memory = torch.zeros(BATCH, DIM)
    for i in range(n_chunks):
        chunk = stream[:, i * CHUNK:(i + 1) * CHUNK + 1]
        logits, memory = model(chunk[:, :-1], memory.detach())
        loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), chunk[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"chunk {i} loss {loss.item():.4f}")


ids = torch.tensor([VOCAB.index(c) for c in TEXT])
stream = ids[:len(ids) // BATCH * BATCH].view(BATCH, -1)
model = DecayMemoryLM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
train(model, optimizer, stream, n_chunks=8)
