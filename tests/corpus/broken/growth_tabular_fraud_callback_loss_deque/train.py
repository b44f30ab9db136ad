"""Card-fraud classifier on a transactions table (numeric amounts/times + a merchant
category embedding) trained by a small Trainer with callbacks. A logging callback keeps
a window of recent batch losses for a smoothed loss read-out."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NUMERIC, N_MERCHANT_CATS = 6, 12


class FraudNet(nn.Module):
    def __init__(self, emb_dim=4, hidden=32):
        super().__init__()
        self.merchant = nn.Embedding(N_MERCHANT_CATS, emb_dim)
        self.body = nn.Sequential(nn.Linear(N_NUMERIC + emb_dim, hidden), nn.ReLU(),
                                  nn.BatchNorm1d(hidden), nn.Linear(hidden, 1))

    def forward(self, numeric, merchant):
        return self.body(torch.cat([numeric, self.merchant(merchant)], dim=1)).squeeze(1)


class SmoothedLossLogger:
    def __init__(self, window=100, every=4):
        self.recent = deque(maxlen=window)
        self.every = every

    def on_batch_end(self, trainer, loss):
        self.recent.append(loss)
        if trainer.global_step % self.every == 0:
            smoothed = sum(self.recent) / len(self.recent)
            print(f"step {trainer.global_step} smoothed loss {smoothed:.4f}")


class Trainer:
    def __init__(self, model, callbacks, lr=3e-3, pos_weight=4.0):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.pos_weight = torch.tensor(pos_weight)
        self.global_step = 0

    def training_step(self, numeric, merchant, label):
        logits = self.model(numeric, merchant)
        loss = F.binary_cross_entropy_with_logits(logits, label, pos_weight=self.pos_weight)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            for numeric, merchant, label in loader:
                loss = self.training_step(numeric, merchant, label)
                self.global_step += 1
                for cb in self.callbacks:
                    cb.on_batch_end(self, loss)


def transactions(n=192, batch=32):
    numeric = torch.randn(n, N_NUMERIC)
    merchant = torch.randint(0, N_MERCHANT_CATS, (n,))
    risk = 1.5 * numeric[:, 0] - numeric[:, 3] + (merchant >= 9).float() * 1.5
    label = (risk + 0.5 * torch.randn(n) > 1.8).float()
    return [(numeric[i:i + batch], merchant[i:i + batch], label[i:i + batch])
            for i in range(0, n, batch)]


trainer = Trainer(FraudNet(), callbacks=[SmoothedLossLogger()])
trainer.fit(transactions(), epochs=2)
