"""Small CIFAR-like CNN using nn.ReLU(inplace=True) after BatchNorm and after Linear.

BatchNorm and Linear keep their inputs (not their outputs) for backward, so overwriting
their outputs with an in-place ReLU is safe; ReLU's own backward uses its result.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)


def conv_bn_relu(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
                         nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class SmallNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.features = nn.Sequential(conv_bn_relu(3, 8), nn.MaxPool2d(2),
                                      conv_bn_relu(8, 16), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(16 * 2 * 2, 32), nn.ReLU(inplace=True),
            nn.Dropout(0.1), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


def batch(n=16):
    labels = torch.randint(0, 4, (n,))
    imgs = torch.randn(n, 3, 8, 8) * 0.5
    for i, c in enumerate(labels.tolist()):
        imgs[i, c % 3, (c // 2) * 4:(c // 2) * 4 + 4] += 1.5
    return imgs, labels


def train(epochs=2, steps_per_epoch=3):
    model = SmallNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    for epoch in range(epochs):
        running = 0.0
        for _ in range(steps_per_epoch):
            x, y = batch()
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} mean loss {running / steps_per_epoch:.6f}")
    return model


model = train()
model.eval()
with torch.no_grad():
    x, y = batch(32)
    print(f"eval acc {(model(x).argmax(1) == y).float().mean().item():.3f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
