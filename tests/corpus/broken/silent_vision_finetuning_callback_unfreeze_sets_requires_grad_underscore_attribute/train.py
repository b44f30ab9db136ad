"""Surface-defect classification on 12x12 grey patches: a small pretrained CNN backbone with
a new 3-class head. The head is warmed up alone for one epoch, then the backbone is
fine-tuned with a lower learning rate (BackboneFinetuning callback)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import BackboneFinetuning, LossPrinter

torch.manual_seed(5)
N_CLASSES = 3


class DefectNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, N_CLASSES)

    def forward(self, x):
        return self.head(self.backbone(x))


def make_patches(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    x = 0.3 * torch.randn(n, 1, 12, 12)
    x[labels == 1, :, 4:8, :] += 1.0          # horizontal scratch
    x[labels == 2, :, :, 4:8] += 1.0          # vertical scratch
    return x, labels


def fit(model, optimizer, batches, epochs, callbacks):
    for cb in callbacks:
        if hasattr(cb, "on_train_start"):
            cb.on_train_start(model)
    for epoch in range(epochs):
        for cb in callbacks:
            if hasattr(cb, "on_epoch_start"):
                cb.on_epoch_start(epoch, model)
        losses = []
        for x, y in batches:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        for cb in callbacks:
            if hasattr(cb, "on_epoch_end"):
                cb.on_epoch_end(epoch, losses)


if __name__ == "__main__":
    model = DefectNet()
    optimizer = torch.optim.AdamW([
        {"params": model.backbone.parameters(), "lr": 1e-3},
        {"params": model.head.parameters(), "lr": 1e-2},
    ])
    x, y = make_patches(64)
    batches = [(x[:32], y[:32]), (x[32:], y[32:])]
    fit(model, optimizer, batches, epochs=3, callbacks=[BackboneFinetuning(1), LossPrinter()])
    print(f"backbone checksum {sum(p.sum().item() for p in model.backbone.parameters()):.4f}")
