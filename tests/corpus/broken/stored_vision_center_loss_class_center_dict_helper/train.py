"""Discriminative feature learning for a small glyph classifier: softmax cross-entropy plus
center loss on the embedding, which pulls each class's features towards its center."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import CenterLoss

N_CLASSES, SIZE = 4, 12


class GlyphNet(nn.Module):
    def __init__(self, embed_dim=8):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
        )
        self.embed = nn.Linear(16 * 4, embed_dim)
        self.classifier = nn.Linear(embed_dim, N_CLASSES)

    def forward(self, x):
        emb = self.embed(self.features(x).flatten(1))
        return emb, self.classifier(F.relu(emb))


def glyph_batch(templates, n):
    labels = torch.randint(0, N_CLASSES, (n,))
    images = templates[labels] + 0.3 * torch.randn(n, 1, SIZE, SIZE)
    return images, labels


def main(steps=6, center_weight=0.1):
    torch.manual_seed(0)
    templates = (torch.rand(N_CLASSES, 1, SIZE, SIZE) > 0.6).float()
    model = GlyphNet()
    center_loss = CenterLoss(alpha=0.5)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(steps):
        images, labels = glyph_batch(templates, 24)
        emb, logits = model(images)
        ce = F.cross_entropy(logits, labels)
        cl = center_loss(emb, labels)
        loss = ce + center_weight * cl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: ce {ce.item():.4f} center {cl.item():.4f} spread {center_loss.spread():.3f}")
    return model


if __name__ == "__main__":
    main()
