"""Bag-of-words sentiment classifier trained by a small Trainer with callbacks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LossLogger, SaturationMonitor

VOCAB, DIM, HIDDEN = 60, 16, 24


class SentimentModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.EmbeddingBag(VOCAB, DIM, mode="mean")
        self.encoder = nn.Sequential(nn.Linear(DIM, HIDDEN), nn.Tanh())
        self.head = nn.Linear(HIDDEN, 2)

    def forward(self, tokens):
        return self.head(self.encoder(self.embed(tokens)))


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model, self.optimizer, self.callbacks = model, optimizer, list(callbacks)

    def fit(self, batches, epochs):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        step = 0
        for _ in range(epochs):
            for tokens, labels in batches:
                loss = F.cross_entropy(self.model(tokens), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                for cb in self.callbacks:
                    cb.on_step_end(self, step, loss.item())
                step += 1


def make_batches(n_batches=3, batch=16, length=10):
    batches = []
    for _ in range(n_batches):
        labels = torch.randint(0, 2, (batch,))
        # positive reviews draw from the upper half of the vocabulary more often
        tokens = torch.randint(0, VOCAB // 2, (batch, length)) + labels.unsqueeze(1) * (VOCAB // 3)
        batches.append((tokens.clamp(max=VOCAB - 1), labels))
    return batches


torch.manual_seed(0)
model = SentimentModel()
trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-2),
                  callbacks=[LossLogger(), SaturationMonitor()])
trainer.fit(make_batches(), epochs=2)
