"""Word-level LSTM language model with tied input/output embeddings, trained with
truncated BPTT over parallel streams of a small corpus. The hidden state is carried from
one bptt slice to the next and repackaged (detached) by lm_utils.repackage_hidden before
every slice; evaluation runs under no_grad with its own hidden state."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from lm_utils import CORPUS, Vocab, batchify, get_batch, repackage_hidden

BPTT, STREAMS, EMB, EPOCHS = 8, 4, 24, 2


class TiedLSTMLM(nn.Module):
    def __init__(self, n_tokens, layers=2):
        super().__init__()
        self.layers = layers
        self.encoder = nn.Embedding(n_tokens, EMB)
        self.rnn = nn.LSTM(EMB, EMB, num_layers=layers, dropout=0.1)
        self.decoder = nn.Linear(EMB, n_tokens)
        self.decoder.weight = self.encoder.weight

    def init_hidden(self, batch):
        zeros = torch.zeros(self.layers, batch, EMB)
        return zeros, zeros.clone()

    def forward(self, tokens, hidden):
        out, hidden = self.rnn(self.encoder(tokens), hidden)
        return self.decoder(out), hidden


def evaluate(model, data, n_tokens):
    model.eval()
    hidden, total = model.init_hidden(data.size(1)), 0.0
    with torch.no_grad():
        for i in range(0, data.size(0) - 1, BPTT):
            x, y = get_batch(data, i, BPTT)
            logits, hidden = model(x, hidden)
            total += x.size(0) * F.cross_entropy(logits.view(-1, n_tokens), y.reshape(-1)).item()
    return total / (data.size(0) - 1)


def main():
    torch.manual_seed(0)
    vocab = Vocab(CORPUS)
    ids = vocab.encode(CORPUS)
    split = int(0.8 * ids.numel())
    train_data, val_data = batchify(ids[:split], STREAMS), batchify(ids[split:], STREAMS)
    model = TiedLSTMLM(len(vocab))
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.5)
    for epoch in range(EPOCHS):
        model.train()
        hidden = model.init_hidden(STREAMS)
        for batch, i in enumerate(range(0, min(train_data.size(0) - 1, 4 * BPTT), BPTT)):
            x, y = get_batch(train_data, i, BPTT)
            hidden = repackage_hidden(hidden)
            logits, hidden = model(x, hidden)
            loss = F.cross_entropy(logits.view(-1, len(vocab)), y.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
            print(f"epoch {epoch} batch {batch} loss {loss.item():.4f}")
        val_loss = evaluate(model, val_data, len(vocab))
        print(f"epoch {epoch} val loss {val_loss:.4f} val ppl {math.exp(val_loss):.2f}")
    print(f"param checksum {sum(p.detach().sum().item() for p in model.parameters()):.6f}")
    return val_loss


if __name__ == "__main__":
    main()
