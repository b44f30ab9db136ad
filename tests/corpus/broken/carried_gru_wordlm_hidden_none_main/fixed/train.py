"""Word-level GRU language model on a toy corpus, trained with truncated BPTT windows."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CORPUS = ("the cat sat on the mat and the dog sat on the log while the bird sang "
          "in the tree and the cat watched the bird from the mat").split()


def build_vocab(words):
    vocab = {w: i for i, w in enumerate(sorted(set(words)))}
    return vocab, torch.tensor([vocab[w] for w in words])


def batchify(ids, batch_size):
    n = ids.numel() // batch_size
    return ids[: n * batch_size].view(batch_size, n)


class GRULanguageModel(nn.Module):
    def __init__(self, vocab_size, emb_dim=16, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim)
        self.gru = nn.GRU(emb_dim, hidden, batch_first=True)
        self.decoder = nn.Linear(hidden, vocab_size)

    def forward(self, tokens, hidden=None):
        out, hidden = self.gru(self.embed(tokens), hidden)
        return self.decoder(out), hidden


def main(epochs=2, bptt=4, batch_size=2):
    torch.manual_seed(0)
    vocab, ids = build_vocab(CORPUS)
    data = batchify(ids, batch_size)
    model = GRULanguageModel(len(vocab))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(epochs):
        hidden = None
        total, count = 0.0, 0
        for start in range(0, data.size(1) - 1 - bptt, bptt):
            inputs = data[:, start:start + bptt]
            targets = data[:, start + 1:start + 1 + bptt]
            if hidden is not None:
                hidden = hidden.detach()
            logits, hidden = model(inputs, hidden)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
            total += loss.item()
            count += 1
        print(f"epoch {epoch} ppl {math.exp(total / count):.2f}")
    return model


if __name__ == "__main__":
    main()
