"""Small ResNet for 16x16 synthetic texture classification, written the torchvision way:
nn.ReLU(inplace=True) after every BatchNorm, `out += identity` before the block's final
in-place ReLU, and an in-place Dropout on the pooled features in the head."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = 4


class BasicBlock(nn.Module):
    def __init__(self, in_ch, out_ch, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_ch)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch)
        self.downsample = None
        if stride != 1 or in_ch != out_ch:
            self.downsample = nn.Sequential(nn.Conv2d(in_ch, out_ch, 1, stride=stride, bias=False),
                                            nn.BatchNorm2d(out_ch))

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += identity
        return self.relu(out)


class TinyResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16),
                                  nn.ReLU(inplace=True))
        self.layer1 = BasicBlock(16, 16)
        self.layer2 = BasicBlock(16, 32, stride=2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2, inplace=True), nn.Linear(32, CLASSES))

    def forward(self, x):
        return self.head(self.pool(self.layer2(self.layer1(self.stem(x)))))


def textures(n, gen):
    labels = torch.randint(0, CLASSES, (n,), generator=gen)
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    angle = labels.float()[:, None, None] * (torch.pi / CLASSES)
    waves = torch.sin(1.3 * (xx * torch.cos(angle) + yy * torch.sin(angle)))
    return (waves + 0.4 * torch.randn(n, 16, 16, generator=gen)).unsqueeze(1), labels


def train(epochs=3, batches=2, batch_size=32):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(6)
    model = TinyResNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    for epoch in range(epochs):
        model.train()
        for _ in range(batches):
            images, labels = textures(batch_size, gen)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            images, labels = textures(64, gen)
            acc = (model(images).argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch} train loss {loss.item():.4f} val acc {acc:.3f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
