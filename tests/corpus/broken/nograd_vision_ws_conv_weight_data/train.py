"""All-convolutional classifier for 8x8 stripe patterns (horizontal, vertical, diagonal)
built from weight-standardized convolutions; the last 1x1 convolution produces the class
maps, averaged over space to get the logits."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import WSConv2d, ws_block

torch.manual_seed(0)
CLASSES, SIZE = 3, 8


def stripes(n):
    labels = torch.randint(0, CLASSES, (n,))
    rows = torch.arange(SIZE)[:, None].expand(SIZE, SIZE)
    cols = rows.t()
    patterns = torch.stack([(rows % 2), (cols % 2), ((rows + cols) % 2)]).float()
    images = patterns[labels][:, None] + 0.3 * torch.randn(n, 1, SIZE, SIZE)
    return images, labels


class AllConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(ws_block(1, 8), ws_block(8, 16, stride=2))
        self.classifier = WSConv2d(16, CLASSES, kernel_size=1)

    def forward(self, x):
        return self.classifier(self.features(x)).mean(dim=(2, 3))


def train(model, epochs=3, batches=2):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        for _ in range(batches):
            images, labels = stripes(32)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


model = AllConvNet()
train(model)
images, labels = stripes(64)
with torch.no_grad():
    acc = (model(images).argmax(1) == labels).float().mean().item()
print(f"accuracy {acc:.3f}")
