"""Multi-label sound event tagging on log-mel patches (dog bark, siren, speech, engine,
glass) with a small CNN. Rare classes get a larger weight: the loss is a weighted sum of
per-class binary cross-entropies, computed by a Trainer class."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = ["dog_bark", "siren", "speech", "engine", "glass_break"]
N_MELS, N_FRAMES = 32, 24


def synth_batch(n, g):
    labels = (torch.rand(n, len(CLASSES), generator=g) < torch.tensor([.4, .2, .6, .5, .1])).float()
    mel = 0.3 * torch.randn(n, 1, N_MELS, N_FRAMES, generator=g)
    for c in range(len(CLASSES)):
        band = slice(c * 6, c * 6 + 6)
        mel[:, 0, band, :] += labels[:, c, None, None] * (1.0 + 0.2 * c)
    return mel, labels


class TaggerCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.classifier = nn.Linear(16, len(CLASSES))

    def forward(self, mel):
        h = self.features(mel)
        return self.classifier(h.amax(dim=(2, 3)))


class Trainer:
    def __init__(self, model, class_weights, lr=3e-3):
        self.model = model
        self.class_weights = class_weights
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
        self.history = []

    def weighted_class_loss(self, logits, labels):
        class_losses = []
        for c in range(len(CLASSES)):
            class_losses.append(F.binary_cross_entropy_with_logits(logits[:, c], labels[:, c]))
        per_class = torch.tensor(class_losses)
        return (per_class * self.class_weights).sum() / self.class_weights.sum(), per_class

    def train_step(self, mel, labels):
        self.model.train()
        logits = self.model(mel)
        loss, per_class = self.weighted_class_loss(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.history.append(per_class.tolist())
        return loss.item()

    def fit(self, steps, batch_size=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        for step in range(steps):
            mel, labels = synth_batch(batch_size, g)
            loss = self.train_step(mel, labels)
            worst = CLASSES[max(range(len(CLASSES)), key=lambda c: self.history[-1][c])]
            print(f"step {step} loss {loss:.4f} hardest class {worst}")


if __name__ == "__main__":
    torch.manual_seed(0)
    weights = torch.tensor([1.0, 2.0, 0.8, 1.0, 3.0])
    Trainer(TaggerCNN(), weights).fit(steps=6)
