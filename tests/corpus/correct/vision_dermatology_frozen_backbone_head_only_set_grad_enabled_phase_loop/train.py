"""Skin-lesion classification (benign / suspicious) on synthetic dermoscopy-like patches by
linear probing: the "pretrained" CNN backbone is frozen with requires_grad_(False) and kept
in eval mode so its BatchNorm statistics stay fixed, a fresh head is attached after the
freeze, and only the head's parameters go to the optimizer. The train/val phase loop
switches gradient tracking with torch.set_grad_enabled(phase == "train")."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

SIZE = 20


def lesion_patches(n, gen):
    labels = torch.randint(0, 2, (n,), generator=gen)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, SIZE), torch.linspace(-1, 1, SIZE), indexing="ij")
    radius = 0.4 + 0.2 * torch.rand(n, 1, 1, generator=gen)
    irregular = 1.0 + 0.25 * labels.float()[:, None, None] * torch.sin(5 * torch.atan2(yy, xx))
    blob = ((xx ** 2 + yy ** 2).sqrt() < radius * irregular).float()
    skin = torch.tensor([0.8, 0.6, 0.5])[None, :, None, None]
    lesion = torch.tensor([0.35, 0.2, 0.15])[None, :, None, None]
    img = skin * (1 - blob[:, None]) + lesion * blob[:, None]
    return img + 0.05 * torch.randn(n, 3, SIZE, SIZE, generator=gen), labels


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.out_features = 16

    def forward(self, x):
        return self.body(x)


class LinearProbe(nn.Module):
    def __init__(self, backbone, n_classes):
        super().__init__()
        self.backbone = backbone.requires_grad_(False)
        self.head = nn.Linear(backbone.out_features, n_classes)

    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()          # frozen BatchNorm statistics
        return self

    def forward(self, x):
        return self.head(self.backbone(x))


def run(model, loaders, optimizer, criterion, epochs):
    for epoch in range(epochs):
        for phase in ("train", "val"):
            model.train(phase == "train")
            losses, correct, seen = [], 0, 0
            for images, labels in loaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    logits = model(images)
                    loss = criterion(logits, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                losses.append(loss.item())
                correct += (logits.argmax(1) == labels).sum().item()
                seen += labels.size(0)
            mean_loss = torch.tensor(losses).mean().item()
            print(f"epoch {epoch} {phase} loss {mean_loss:.4f} acc {correct / seen:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(6)
    pretrained = Backbone()       # stands in for weights loaded from a checkpoint
    model = LinearProbe(pretrained, n_classes=2)
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"trainable tensors: {len(trainable)}")
    optimizer = torch.optim.SGD(trainable, lr=0.1, momentum=0.9)
    loaders = {"train": DataLoader(TensorDataset(*lesion_patches(48, gen)), batch_size=16, shuffle=True,
                                   generator=torch.Generator().manual_seed(0)),
               "val": DataLoader(TensorDataset(*lesion_patches(16, gen)), batch_size=16)}
    run(model, loaders, optimizer, nn.CrossEntropyLoss(), epochs=2)
    print(f"head checksum {sum(p.sum().item() for p in model.head.parameters()):.4f}")
    print(f"backbone checksum {sum(p.sum().item() for p in model.backbone.parameters()):.4f}")
