"""Texture classifier with a learnable anti-aliasing front end.

Images are low-pass filtered with a Gaussian whose width is learned (log_sigma), then
downsampled by a strided conv stack. The Gaussian filter is the same for every image of a
step, so it is built by gaussian_kernel() and applied depthwise.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, IMG, BATCH, EPOCHS, STEPS_PER_EPOCH = 4, 16, 16, 2, 3


def gaussian_kernel(log_sigma, size=5):
    coords = torch.arange(size, dtype=torch.float32) - size // 2
    g = torch.exp(-coords ** 2 / (2 * log_sigma.exp() ** 2))
    g = g / g.sum()
    return (g[:, None] * g[None, :]).expand(3, 1, size, size)


def depthwise_blur(images, kernel):
    return F.conv2d(images, kernel, padding=kernel.shape[-1] // 2, groups=images.shape[1])


class TextureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_sigma = nn.Parameter(torch.tensor(0.0))
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(32, N_CLASSES)

    def forward(self, images, kernel):
        return self.classifier(self.features(depthwise_blur(images, kernel)))


def synthetic_batch(gen):
    labels = torch.randint(0, N_CLASSES, (BATCH,), generator=gen)
    freqs = (labels.float() + 1.0) * 0.6
    xs = torch.arange(IMG).float()
    stripes = torch.sin(freqs[:, None, None] * xs[None, None, :] + xs[None, :, None] * 0.3)
    images = stripes[:, None].expand(BATCH, 3, IMG, IMG) + 0.3 * torch.randn(BATCH, 3, IMG, IMG, generator=gen)
    return images, labels


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = TextureNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    kernel = gaussian_kernel(model.log_sigma)
    history = []
    for epoch in range(EPOCHS):
        model.train()
        for step in range(STEPS_PER_EPOCH):
            images, labels = synthetic_batch(gen)
            logits = model(images, kernel)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            acc = (logits.argmax(1) == labels).float().mean().item()
            history.append(loss.item())
            print(f"epoch {epoch} step {step}  loss {loss.item():.4f}  acc {acc:.2f}  "
                  f"sigma {model.log_sigma.exp().item():.3f}")
    return history


if __name__ == "__main__":
    train()
