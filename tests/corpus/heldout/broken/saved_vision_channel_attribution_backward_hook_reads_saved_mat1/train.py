"""Small CNN classifying synthetic 'bar' images (horizontal / vertical / diagonal bars); a
ChannelAttribution monitor tracks which pooled channels drive the classifier."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from attribution import ChannelAttribution

torch.manual_seed(0)


def bar_images(n, size=12):
    labels = torch.randint(0, 3, (n,))
    imgs = 0.2 * torch.randn(n, 1, size, size)
    pos = torch.randint(2, size - 2, (n,))
    idx = torch.arange(size)
    for i in range(n):
        if labels[i] == 0:
            imgs[i, 0, pos[i], :] += 1.0
        elif labels[i] == 1:
            imgs[i, 0, :, pos[i]] += 1.0
        else:
            imgs[i, 0, idx, idx] += 1.0
    return imgs, labels


class BarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
        )
        self.classifier = nn.Linear(16, 3)

    def forward(self, x):
        return self.classifier(self.features(x).mean((2, 3)))


model = BarNet()
monitor = ChannelAttribution(model.classifier)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(5):
    images, labels = bar_images(32)
    logits = model(images)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(1) == labels).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f} top channels {monitor.top_channels()}")
