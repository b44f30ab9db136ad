"""Texture classifier (stripes / checks / dots) on generated 16x16 patches. The middle and
last conv blocks use MaxNormConv2d from layers.py, a port of Keras' max_norm constraint."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import conv_block

torch.manual_seed(0)
N_CLASSES = 3


def make_patches(n):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    labels = torch.randint(0, N_CLASSES, (n,))
    freq = 0.6 + 0.4 * torch.rand(n, 1, 1)
    stripes = torch.sin(freq * xx)
    checks = torch.sin(freq * xx) * torch.sin(freq * yy)
    dots = torch.cos(freq * xx) + torch.cos(freq * yy)
    bank = torch.stack([stripes, checks, dots], 1)
    images = bank[torch.arange(n), labels].unsqueeze(1)
    return images + 0.3 * torch.randn_like(images), labels


class TextureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            conv_block(1, 8),
            conv_block(8, 16, constrained=True),
            conv_block(16, 16, constrained=True),
        )
        self.head = nn.Linear(16 * 2 * 2, N_CLASSES)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def train(epochs=3, batches=2):
    model = TextureNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        correct = total = 0
        for _ in range(batches):
            images, labels = make_patches(32)
            logits = model(images)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1) == labels).sum().item()
            total += labels.numel()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {correct / total:.3f}")
    return model


if __name__ == "__main__":
    train()
