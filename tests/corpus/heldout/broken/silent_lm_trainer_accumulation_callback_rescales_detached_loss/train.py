"""Word-level LSTM language model on a toy corpus, trained through a small Trainer with
callbacks (gradient accumulation over 2 micro-batches, perplexity logging)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import GradientAccumulation, PerplexityLogger

CORPUS = ("the cat sat on the mat . the dog sat on the rug . a cat saw a dog . "
          "the dog saw the cat on the mat . a bird sat on the dog .").split()
VOCAB = sorted(set(CORPUS))
IDS = torch.tensor([VOCAB.index(w) for w in CORPUS])
SEQ = 6


class WordLSTM(nn.Module):
    def __init__(self, vocab, dim=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        out, _ = self.lstm(self.embed(tokens))
        return self.head(out)


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
        self.micro_step = 0
        self.updates = 0

    def compute_loss(self, batch):
        logits = self.model(batch[:, :-1])
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), batch[:, 1:].reshape(-1))

    def train_micro_batch(self, batch):
        loss = self.compute_loss(batch)
        for cb in self.callbacks:
            loss = cb.on_before_backward(self, loss)
        loss.backward()
        if all(cb.should_step(self) for cb in self.callbacks if hasattr(cb, "should_step")):
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.updates += 1
        self.micro_step += 1

    def fit(self, micro_batches):
        self.model.train()
        self.optimizer.zero_grad()
        for batch in micro_batches:
            self.train_micro_batch(batch)


def sample_batches(n, generator, batch_size=4):
    starts = torch.randint(0, len(IDS) - SEQ - 1, (n, batch_size), generator=generator)
    return [torch.stack([IDS[s:s + SEQ + 1] for s in row]) for row in starts]


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
model = WordLSTM(len(VOCAB))
trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-2),
                  [PerplexityLogger(every=4), GradientAccumulation(steps=2)])
trainer.fit(sample_batches(12, gen))
print(f"optimizer updates {trainer.updates}")
