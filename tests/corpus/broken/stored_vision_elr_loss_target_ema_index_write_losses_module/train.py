"""Small CNN on synthetic 8x8 textures with 30% symmetric label noise, trained with ELR."""
import torch
import torch.nn as nn

from losses import ELRLoss

N_TRAIN, N_CLASSES, BATCH, NOISE = 48, 4, 16, 0.3


def make_dataset():
    clean = torch.randint(0, N_CLASSES, (N_TRAIN,))
    freqs = (clean.float() + 1.0)[:, None, None]
    grid = torch.linspace(0, 3.14, 8)
    images = torch.sin(freqs * grid[None, :, None]) * torch.cos(freqs * grid[None, None, :])
    images = images.unsqueeze(1) + 0.3 * torch.randn(N_TRAIN, 1, 8, 8)
    flip = torch.rand(N_TRAIN) < NOISE
    noisy = torch.where(flip, torch.randint(0, N_CLASSES, (N_TRAIN,)), clean)
    return images, noisy, clean


class TextureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16, N_CLASSES)

    def forward(self, x):
        return self.fc(self.features(x))


def train(epochs=2):
    torch.manual_seed(0)
    images, noisy, clean = make_dataset()
    model = TextureNet()
    criterion = ELRLoss(N_TRAIN, N_CLASSES)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-3)
    for epoch in range(epochs):
        order = torch.randperm(N_TRAIN)
        for start in range(0, N_TRAIN, BATCH):
            index = order[start:start + BATCH]
            logits = model(images[index])
            loss = criterion(index, logits, noisy[index])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            acc = (model(images).argmax(1) == clean).float().mean().item()
        print(f"epoch {epoch}: loss {loss.item():.4f} clean acc {acc:.3f} "
              f"target/label agreement {criterion.agreement(noisy):.3f}")


if __name__ == "__main__":
    train()
