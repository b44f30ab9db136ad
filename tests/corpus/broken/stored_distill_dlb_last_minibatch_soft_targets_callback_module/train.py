"""Tabular risk-tier classifier trained with a small callback-driven Trainer; the DLB
callback adds a consistency term between the predictions of consecutive iterations."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LastBatchDistillation, LossPrinter

N_FEATURES, N_CLASSES, BATCH = 10, 3, 8


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = callbacks
        self.step = 0
        self.last_loss = float("nan")

    def fit_batch(self, inputs, targets):
        for cb in self.callbacks:
            inputs, targets = cb.on_batch_start(self, inputs, targets)
        logits = self.model(inputs)
        loss = F.cross_entropy(logits, targets)
        for cb in self.callbacks:
            loss = loss + cb.extra_loss(self, logits)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.last_loss = loss.item()
        for cb in self.callbacks:
            cb.on_batch_end(self, inputs, targets, logits)
        self.step += 1


def applicants(n_batches, generator):
    w = torch.randn(N_FEATURES, N_CLASSES, generator=generator)
    for _ in range(n_batches):
        x = torch.randn(BATCH, N_FEATURES, generator=generator)
        y = (x @ w + 0.3 * torch.randn(BATCH, N_CLASSES, generator=generator)).argmax(1)
        yield x, y


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Dropout(0.1),
                          nn.Linear(32, N_CLASSES))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
    trainer = Trainer(model, optimizer, [LastBatchDistillation(), LossPrinter()])
    for inputs, targets in applicants(6, gen):
        trainer.fit_batch(inputs, targets)


if __name__ == "__main__":
    main()
