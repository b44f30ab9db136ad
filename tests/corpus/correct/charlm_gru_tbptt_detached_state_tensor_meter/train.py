"""Character-level GRU language model trained with truncated BPTT over one long stream
split into parallel batch rows. The Trainer carries the hidden state on self from chunk
to chunk and detaches it at every chunk boundary; the epoch perplexity is computed from a
running tensor total that only ever receives detached losses."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
CORPUS = ("a stitch in time saves nine. the early bird catches the worm. "
          "better late than never. actions speak louder than words. ") * 4
VOCAB = sorted(set(CORPUS))
STOI = {c: i for i, c in enumerate(VOCAB)}
ROWS, BPTT, EMB, HID = 4, 16, 16, 48


class CharGRU(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, EMB)
        self.gru = nn.GRU(EMB, HID, batch_first=True)
        self.proj = nn.Linear(HID, vocab_size)

    def forward(self, x, hidden=None):
        out, hidden = self.gru(self.embed(x), hidden)
        return self.proj(out), hidden


def batchify(text):
    ids = torch.tensor([STOI[c] for c in text])
    per_row = len(ids) // ROWS
    return ids[:per_row * ROWS].view(ROWS, per_row)


class TBPTTTrainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.hidden = None

    def train_chunk(self, x, y):
        if self.hidden is not None:
            self.hidden = self.hidden.detach()
        logits, self.hidden = self.model(x, self.hidden)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        return loss

    def run_epoch(self, streams):
        self.hidden = None
        total_nll, total_tokens = torch.zeros(()), 0
        for start in range(0, streams.shape[1] - 1 - BPTT, BPTT):
            x = streams[:, start:start + BPTT]
            y = streams[:, start + 1:start + 1 + BPTT]
            loss = self.train_chunk(x, y)
            total_nll += loss.detach() * y.numel()
            total_tokens += y.numel()
        return math.exp(total_nll.item() / total_tokens)


streams = batchify(CORPUS)
trainer = TBPTTTrainer(CharGRU(len(VOCAB)))
for epoch in range(2):
    ppl = trainer.run_epoch(streams)
    print(f"epoch {epoch} train perplexity {ppl:.3f}")
checksum = sum(p.detach().abs().sum().item() for p in trainer.model.parameters())
print(f"parameter checksum {checksum:.4f}")
