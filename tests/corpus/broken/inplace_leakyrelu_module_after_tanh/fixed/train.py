"""Classifier with a tanh-bounded embedding; the head was copied from a CNN project where
it started with an in-place LeakyReLU to save memory."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
IN_DIM, EMB, CLASSES = 12, 16, 4


class EmbeddingClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(IN_DIM, 32), nn.ReLU(),
            nn.Linear(32, EMB), nn.Tanh(),
        )
        self.head = nn.Sequential(
            nn.LeakyReLU(0.1),
            nn.Linear(EMB, CLASSES),
        )

    def forward(self, x):
        feats = self.encoder(x)
        return self.head(feats)


def train(steps=5):
    model = EmbeddingClassifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = torch.randn(40, IN_DIM)
    y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
    for step in range(steps):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    return loss.item()


print(f"final loss {train():.4f}")
