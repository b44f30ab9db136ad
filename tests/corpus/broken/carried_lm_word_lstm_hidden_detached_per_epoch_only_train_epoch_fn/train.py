"""Word-level LSTM language model trained with truncated BPTT over one long token stream.

The corpus is batchified into BATCH parallel streams; each window of BPTT tokens starts from
the hidden state the previous window ended in, so the model can use context beyond BPTT.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HID, BPTT, BATCH = 60, 16, 32, 6, 4


class WordLSTM(nn.Module):
    def __init__(self, vocab=VOCAB, emb=EMB, hid=HID, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hid, batch_first=True)
        self.drop = nn.Dropout(dropout)
        self.decoder = nn.Linear(hid, vocab)

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(1, bsz, HID), weight.new_zeros(1, bsz, HID))

    def forward(self, tokens, hidden):
        out, hidden = self.lstm(self.drop(self.embed(tokens)), hidden)
        return self.decoder(self.drop(out)), hidden


def batchify(stream, bsz):
    n = stream.numel() // bsz
    return stream[: n * bsz].view(bsz, n)


def train_epoch(model, data, optimizer, hidden, clip=0.25):
    model.train()
    total, windows = 0.0, 0
    for start in range(0, data.size(1) - 1, BPTT):
        seq_len = min(BPTT, data.size(1) - 1 - start)
        inputs = data[:, start:start + seq_len]
        targets = data[:, start + 1:start + 1 + seq_len]
        logits, hidden = model(inputs, hidden)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total += loss.item()
        windows += 1
    return total / windows, hidden


def main():
    torch.manual_seed(0)
    corpus = torch.randint(0, VOCAB, (BATCH * 19,))
    data = batchify(corpus, BATCH)
    model = WordLSTM()
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    hidden = model.init_hidden(BATCH)
    for epoch in range(2):
        # carry the state across epochs too, but start each epoch cut from the old graph
        hidden = tuple(h.detach() for h in hidden)
        avg, hidden = train_epoch(model, data, optimizer, hidden)
        print(f"epoch {epoch} loss {avg:.4f} ppl {math.exp(avg):.2f}")
    return model


if __name__ == "__main__":
    main()
