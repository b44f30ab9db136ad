"""Character-level GRU language model trained with truncated BPTT over one
long text stream. The Trainer keeps a loss history for its plateau check
and the hidden state across batches, both without holding any graph."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = ("the quick brown fox jumps over the lazy dog while the cat sleeps "
        "and the bird sings a song about the river that runs to the sea ") * 2


class CharLM(nn.Module):
    def __init__(self, vocab, emb=16, hidden=48):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, h=None):
        y, h = self.rnn(self.embed(x), h)
        return self.out(y), h


class Trainer:
    def __init__(self, model, lr=5e-3, bptt=16, patience=3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.bptt = bptt
        self.patience = patience
        self.loss_history = []
        self.hidden = None

    def plateaued(self):
        if len(self.loss_history) <= self.patience:
            return False
        recent = self.loss_history[-self.patience:]
        return min(recent) > min(self.loss_history[:-self.patience]) - 1e-3

    def train_epoch(self, data):
        for start in range(0, data.size(1) - self.bptt - 1, self.bptt):
            x = data[:, start:start + self.bptt]
            y = data[:, start + 1:start + 1 + self.bptt]
            if self.hidden is not None:
                self.hidden = self.hidden.detach()
            logits, self.hidden = self.model(x, self.hidden)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
            self.opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
            self.loss_history.append(loss.item())
        return self.loss_history[-1]


def main():
    torch.manual_seed(0)
    vocab = sorted(set(TEXT))
    ids = torch.tensor([vocab.index(c) for c in TEXT])
    usable = (len(ids) // 2) * 2
    data = ids[:usable].view(2, -1)
    trainer = Trainer(CharLM(len(vocab)))
    for epoch in range(2):
        last = trainer.train_epoch(data)
        print(f"epoch {epoch} loss {last:.4f} ppl {math.exp(last):.2f} "
              f"steps {len(trainer.loss_history)} plateau {trainer.plateaued()}")
    checksum = sum(p.double().sum().item() for p in trainer.model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
