"""Face-ID embedding training on synthetic 'identity' images with an ArcFace head."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from heads import ArcMarginHead

torch.manual_seed(0)
NUM_IDS, EMB = 10, 16


class TinyFaceNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.embed = nn.Linear(16, EMB)

    def forward(self, x):
        return self.embed(self.features(x))


PROTOTYPES = torch.randn(NUM_IDS, 1, 12, 12)


def faces(n):
    ids = torch.randint(0, NUM_IDS, (n,))
    return PROTOTYPES[ids] + 0.5 * torch.randn(n, 1, 12, 12), ids


class FaceTrainer:
    def __init__(self):
        self.backbone = TinyFaceNet()
        self.head = ArcMarginHead(EMB, NUM_IDS)
        params = list(self.backbone.parameters()) + list(self.head.parameters())
        self.optimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=5e-4)

    def step(self, images, ids):
        logits = self.head(self.backbone(images), ids)
        loss = F.cross_entropy(logits, ids)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, epochs=3, batches=2):
        for epoch in range(epochs):
            losses = [self.step(*faces(32)) for _ in range(batches)]
            print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f} "
                  f"scale {self.head.scale.item():.3f}")


if __name__ == "__main__":
    FaceTrainer().fit()
