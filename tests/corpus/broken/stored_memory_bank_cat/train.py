"""Classifier with a feature memory bank: features of recent batches are kept on the
model and used as extra negatives (a uniformity term) for the next batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryClassifier(nn.Module):
    def __init__(self, in_dim=12, dim=16, n_classes=4, bank_size=24):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.classifier = nn.Linear(dim, n_classes)
        self.bank_size = bank_size
        self.memory = F.normalize(torch.randn(bank_size, dim), dim=1)

    def forward(self, x):
        feats = F.normalize(self.encoder(x), dim=1)
        uniformity = torch.logsumexp(feats @ self.memory.t() / 0.2, dim=1).mean()
        self.memory = torch.cat([self.memory, feats])[-self.bank_size:]
        return self.classifier(feats), uniformity


def train(model, batches, optimizer):
    for step, (x, y) in enumerate(batches):
        logits, uniformity = model(x)
        loss = F.cross_entropy(logits, y) + 0.1 * uniformity
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MemoryClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    batches = [(torch.randn(8, 12), torch.randint(0, 4, (8,))) for _ in range(4)]
    train(model, batches, optimizer)
