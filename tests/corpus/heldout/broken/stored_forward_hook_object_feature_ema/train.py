"""Small CNN on synthetic 3x16x16 textures (stripes in one of four orientations) with a
feature-centering regulariser on the embedding layer, attached through a forward hook."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import FeatureCentering

N_CLASSES, EMB, CENTER_WEIGHT = 4, 32, 0.05


def make_textures(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    patterns = torch.stack([torch.sin(xx), torch.sin(yy), torch.sin(xx + yy), torch.sin(xx - yy)])
    images = patterns[labels].unsqueeze(1).repeat(1, 3, 1, 1)
    return images + 0.3 * torch.randn(n, 3, 16, 16), labels


class TextureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.embedding = nn.Linear(32, EMB)
        self.classifier = nn.Linear(EMB, N_CLASSES)

    def forward(self, x):
        return self.classifier(F.relu(self.embedding(self.features(x))))


def train(model, centering, optimizer, batches, epochs):
    for epoch in range(epochs):
        for x, y in batches:
            logits = model(x)
            ce = F.cross_entropy(logits, y)
            loss = ce + CENTER_WEIGHT * centering.penalty()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} ce {ce.item():.4f} centre norm {centering.running_mean.norm().item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TextureNet()
    centering = FeatureCentering(model.embedding, EMB)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    train(model, centering, optimizer, [make_textures(16) for _ in range(3)], epochs=2)
