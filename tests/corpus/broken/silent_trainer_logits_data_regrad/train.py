"""Trainer for a small tabular classifier. The step takes the logits through .data (they
were first only used for the accuracy) and turns requires_grad back on for the loss."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_FEATURES, N_CLASSES = 12, 4


class TabularMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.LayerNorm(32), nn.SiLU())
        self.head = nn.Linear(32, N_CLASSES)

    def forward(self, x):
        return self.head(self.body(x))


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)

    def training_step(self, x, y):
        logits = self.model(x).data
        logits.requires_grad = True
        loss = self.criterion(logits, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        acc = (logits.argmax(dim=1) == y).float().mean().item()
        return loss.item(), acc

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for x, y in batches:
                loss, acc = self.training_step(x, y)
            print(f"epoch {epoch} loss {loss:.4f} acc {acc:.2f}")


batches = [(torch.randn(16, N_FEATURES), torch.randint(0, N_CLASSES, (16,))) for _ in range(3)]
trainer = Trainer(TabularMLP())
trainer.fit(batches, epochs=2)
print(f"weight checksum {sum(p.sum().item() for p in trainer.model.parameters()):.4f}")
