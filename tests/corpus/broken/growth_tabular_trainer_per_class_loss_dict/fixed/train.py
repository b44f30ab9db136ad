"""Loan-outcome classifier (repaid / late / default) on tabular applicant features. The
Trainer keeps a running loss per outcome class so the epoch summary shows which outcome
the model struggles with."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, BATCH, N_BATCHES = 12, 32, 6
CLASS_NAMES = ["repaid", "late", "default"]


class TabularMLP(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(N_FEATURES, hidden), nn.ReLU(), nn.Dropout(0.1),
            nn.Linear(hidden, len(CLASS_NAMES)))

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-5)
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

    def fit(self, batches):
        for i, (x, y) in enumerate(batches):
            print(f"batch {i} loss {self.train_step(x, y):.4f}")
        return " ".join(f"{name} {self.class_loss[name] / max(self.class_count[name], 1):.3f}"
                        for name in CLASS_NAMES)


def applicant_batches():
    weights = torch.randn(N_FEATURES, len(CLASS_NAMES))
    for _ in range(N_BATCHES):
        x = torch.randn(BATCH, N_FEATURES)
        y = (x @ weights + 0.5 * torch.randn(BATCH, len(CLASS_NAMES))).argmax(dim=1)
        yield x, y


trainer = Trainer(TabularMLP())
print("per-class mean loss:", trainer.fit(applicant_batches()))
