"""Word-level LSTM language model trained with truncated BPTT over one long token stream
(the layout of the classic word_language_model example), five updates as a smoke test."""
import math

import torch
import torch.nn as nn

from lm_utils import batchify, get_batch, repackage_hidden, synthetic_corpus

VOCAB, EMB, HIDDEN, BATCH, BPTT = 50, 16, 32, 4, 6


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers=2, dropout=0.1):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nlayers, self.nhid = nlayers, nhid

    def forward(self, tokens, hidden):
        emb = self.drop(self.encoder(tokens))
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(self.drop(output)), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))


def main(steps=5, clip=0.25):
    torch.manual_seed(0)
    train_data = batchify(synthetic_corpus(BATCH * (steps * BPTT + 1), VOCAB), BATCH)
    model = RNNModel(VOCAB, EMB, HIDDEN)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    model.train()
    hidden = model.init_hidden(BATCH)
    total = 0.0
    for step, i in enumerate(range(0, steps * BPTT, BPTT)):
        data, targets = get_batch(train_data, i, BPTT)
        # Starting each batch, we detach the hidden state from how it was previously produced.
        repackage_hidden(hidden)
        optimizer.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output.view(-1, VOCAB), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total += loss.item()
        print(f"step {step} loss {loss.item():.4f} ppl {math.exp(loss.item()):.2f}")
    return total / steps


if __name__ == "__main__":
    print(f"mean loss {main():.4f}")
