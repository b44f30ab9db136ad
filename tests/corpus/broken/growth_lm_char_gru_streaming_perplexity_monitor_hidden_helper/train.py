"""Character-level GRU language model trained with truncated BPTT on a small corpus; a
streaming perplexity monitor (monitor.py) follows a held-out text after every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from monitor import StreamingPerplexity

TRAIN_TEXT = ("the quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat "
              "and the bird sings a song about the long summer days by the quiet river ") * 4
VALID_TEXT = "a lazy cat dreams of the river while the fox sings about warm summer days " * 4
VOCAB = sorted(set(TRAIN_TEXT + VALID_TEXT))
STOI = {c: i for i, c in enumerate(VOCAB)}
BPTT, BATCH, STEPS = 16, 4, 10


def encode(text):
    return torch.tensor([STOI[c] for c in text])


class CharGRU(nn.Module):
    def __init__(self, vocab, emb=16, hidden=48):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, tokens, hidden=None):
        out, hidden = self.rnn(self.embed(tokens), hidden)
        return self.head(out), hidden


def batchify(ids, batch):
    usable = ids.numel() // batch * batch
    return ids[:usable].view(batch, -1)


def train():
    torch.manual_seed(0)
    data = batchify(encode(TRAIN_TEXT), BATCH)
    model = CharGRU(len(VOCAB))
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    monitor = StreamingPerplexity(encode(VALID_TEXT), chunk_len=24)
    hidden = None
    for step in range(STEPS):
        start = (step * BPTT) % (data.size(1) - BPTT - 1)
        x = data[:, start:start + BPTT]
        y = data[:, start + 1:start + BPTT + 1]
        if hidden is not None:
            hidden = hidden.detach()
        logits, hidden = model(x, hidden)
        loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        valid_ppl = monitor.update(model)
        print(f"step {step} train loss {loss.item():.4f} valid ppl {valid_ppl:.2f}")
    return model


if __name__ == "__main__":
    train()
