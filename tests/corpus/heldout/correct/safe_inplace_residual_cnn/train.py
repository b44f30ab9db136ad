"""Small ResNet-style classifier that uses in-place ops wherever they are safe:
nn.ReLU(inplace=True) right after BatchNorm, out += identity on a BatchNorm output,
F.relu_ after the residual add, an in-place scale of a Linear output, and weight clipping
of the classifier under no_grad after each step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BasicBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += identity
        return F.relu_(out)


class ResNetTiny(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8),
                                  nn.ReLU(inplace=True))
        self.layer = nn.Sequential(BasicBlock(8), BasicBlock(8))
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        h = F.adaptive_avg_pool2d(self.layer(self.stem(x)), 1).flatten(1)
        logits = self.fc(h)
        logits.mul_(2.0)  # fixed logit scale
        return logits


def make_batch(n=24):
    labels = torch.randint(0, 3, (n,))
    images = torch.randn(n, 1, 10, 10) * 0.5
    images[labels == 1, :, :5] += 1.0
    images[labels == 2, :, :, :5] -= 1.0
    return images, labels


model = ResNetTiny()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(6):
    images, labels = make_batch()
    loss = F.cross_entropy(model(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        model.fc.weight.clamp_(-1.0, 1.0)
    print(f"step {step} loss {loss.item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
