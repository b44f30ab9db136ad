"""Semi-supervised tabular classifier (a few labelled rows, many unlabelled) trained with a
small callback-driven Trainer; temporal ensembling supplies the unsupervised term."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LossPrinter, TemporalEnsembling

torch.manual_seed(0)
N_FEATURES, N_CLASSES, BATCH, N_BATCHES = 10, 3, 24, 3


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
        self.epoch = 0

    def training_step(self, batch_idx, x, y, labelled):
        logits = self.model(x + 0.1 * torch.randn_like(x))
        loss = F.cross_entropy(logits[labelled], y[labelled])
        for cb in self.callbacks:
            extra = cb.extra_loss(batch_idx, logits)
            if extra is not None:
                loss = loss + extra
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        for cb in self.callbacks:
            cb.on_batch_end(self, batch_idx, logits, loss)

    def fit(self, batches, epochs):
        for self.epoch in range(epochs):
            self.model.train()
            for batch_idx, (x, y, labelled) in enumerate(batches):
                self.training_step(batch_idx, x, y, labelled)


def make_batches():
    centres = 2 * torch.randn(N_CLASSES, N_FEATURES)
    batches = []
    for _ in range(N_BATCHES):
        y = torch.randint(0, N_CLASSES, (BATCH,))
        x = centres[y] + torch.randn(BATCH, N_FEATURES)
        labelled = torch.arange(BATCH) < 6
        batches.append((x, y, labelled))
    return batches


model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Dropout(0.2),
                      nn.Linear(32, N_CLASSES))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
callbacks = [TemporalEnsembling(N_BATCHES, BATCH, N_CLASSES), LossPrinter()]
Trainer(model, optimizer, callbacks).fit(make_batches(), epochs=4)
