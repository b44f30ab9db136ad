"""Churn-risk classifier (stay / downgrade / churn) on raw, unscaled account features.
The first layer standardises its input with running mean/variance buffers that forward()
updates in training mode under torch.no_grad(); the Trainer keeps per-class running losses
as Python floats for the epoch report."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, BATCH, N_BATCHES = 8, 32, 6
CLASS_NAMES = ["stay", "downgrade", "churn"]


class RunningStandardizer(nn.Module):
    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.running_mean.lerp_(x.mean(dim=0), self.momentum)
                self.running_var.lerp_(x.var(dim=0), self.momentum)
        return (x - self.running_mean) / (self.running_var + 1e-5).sqrt()


class ChurnModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.scaler = RunningStandardizer(N_FEATURES)
        self.mlp = nn.Sequential(nn.Linear(N_FEATURES, 24), nn.ReLU(),
                                 nn.Linear(24, len(CLASS_NAMES)))

    def forward(self, x):
        return self.mlp(self.scaler(x))


class Trainer:
    def __init__(self, model, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.class_loss = {name: 0.0 for name in CLASS_NAMES}
        self.class_count = {name: 0 for name in CLASS_NAMES}

    def train_step(self, x, y):
        self.model.train()
        per_sample = F.cross_entropy(self.model(x), y, reduction="none")
        loss = per_sample.mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        for c, name in enumerate(CLASS_NAMES):
            mask = y == c
            self.class_loss[name] += per_sample[mask].sum().item()
            self.class_count[name] += int(mask.sum())
        return loss.item()


def account_batches():
    scale = torch.tensor([1.0, 10.0, 100.0, 1000.0, 1.0, 5.0, 50.0, 0.1])
    weights = torch.randn(N_FEATURES, len(CLASS_NAMES))
    for _ in range(N_BATCHES):
        z = torch.randn(BATCH, N_FEATURES)
        y = (z @ weights + 0.3 * torch.randn(BATCH, len(CLASS_NAMES))).argmax(dim=1)
        yield 3.0 + z * scale, y


trainer = Trainer(ChurnModel())
for i, (x, y) in enumerate(account_batches()):
    print(f"batch {i} loss {trainer.train_step(x, y):.4f}")
report = " ".join(f"{n} {trainer.class_loss[n] / max(trainer.class_count[n], 1):.3f}"
                  for n in CLASS_NAMES)
print("per-class mean loss:", report)
checksum = sum(p.sum().item() for p in trainer.model.parameters())
running_mean_sum = trainer.model.scaler.running_mean.sum().item()
print(f"param checksum {checksum:.6f} running mean sum {running_mean_sum:.4f}")
