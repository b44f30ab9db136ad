"""Regression Trainer with a centering regulariser: outputs are pulled towards an
exponential moving average of past batch means, kept on the Trainer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr=1e-2, momentum=0.99, center_weight=0.1):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.momentum = momentum
        self.center_weight = center_weight
        self.ema_target = torch.zeros(model[-1].out_features)

    def training_step(self, x, y):
        out = self.model(x)
        loss = F.mse_loss(out, y)
        loss = loss + self.center_weight * (out - self.ema_target).pow(2).mean()
        self.ema_target = self.momentum * self.ema_target + (1 - self.momentum) * out.mean(0)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, batches, epochs=1):
        for epoch in range(epochs):
            for x, y in batches:
                last = self.training_step(x, y)
            print(f"epoch {epoch} loss {last:.4f}")


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
batches = [(torch.randn(16, 10), torch.randn(16, 4)) for _ in range(3)]
trainer = Trainer(model)
trainer.fit(batches, epochs=2)
print(f"ema target norm {trainer.ema_target.norm().item():.6f}")
