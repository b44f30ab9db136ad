"""Long-tailed classification of synthetic 'species' images with a CNN whose classifier
carries a LogitAdjustmentHook (hooks.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import LogitAdjustmentHook

N_CLASSES, IMG, BATCH, STEPS = 5, 12, 32, 6
CLASS_COUNTS = torch.tensor([400, 200, 80, 30, 10])


class SpeciesNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(32, N_CLASSES)

    def forward(self, x):
        return self.classifier(self.backbone(x))


def long_tailed_batch(gen, prototypes):
    probs = CLASS_COUNTS.float() / CLASS_COUNTS.sum()
    labels = torch.multinomial(probs, BATCH, replacement=True, generator=gen)
    return prototypes[labels] + 0.6 * torch.randn(BATCH, 3, IMG, IMG, generator=gen), labels


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(21)
    prototypes = torch.randn(N_CLASSES, 3, IMG, IMG, generator=gen)
    model = SpeciesNet()
    adjust = LogitAdjustmentHook(CLASS_COUNTS, tau=1.0).attach(model.classifier)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    model.train()
    for step in range(STEPS):
        images, labels = long_tailed_batch(gen, prototypes)
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}  loss {loss.item():.4f}  "
              f"predicted prior {[round(p, 3) for p in adjust.predicted_prior.tolist()]}")
    return model


if __name__ == "__main__":
    train()
