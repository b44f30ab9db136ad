"""Trains a small classifier with the callback Trainer and SAM."""
import torch
import torch.nn as nn

from callbacks import PrintLoss, SAMCallback
from trainer import Trainer

torch.manual_seed(0)
centers = torch.randn(3, 6) * 2
batches = []
for _ in range(4):
    y = torch.randint(0, 3, (16,))
    batches.append((centers[y] + torch.randn(16, 6), y))

model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 3))
trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
                  nn.CrossEntropyLoss(), callbacks=[SAMCallback(rho=0.05), PrintLoss()])
trainer.fit(batches, epochs=1)
