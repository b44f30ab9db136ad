"""Fine-tuning a small pretrained CNN for multi-label image tagging (horizontal bar, vertical
bar, blob, bright background). Tags are imbalanced, so the FineTuner optimises a macro soft-F1
directly; the soft-F1 function is the one from the evaluation script."""
import torch
import torch.nn as nn

TAGS = ["hbar", "vbar", "blob", "bright"]
SIZE = 12


def macro_soft_f1(probs, targets, eps=1e-7):
    """Soft F1 per tag (probabilities as fractional counts), averaged over tags."""
    tp = (probs * targets).sum(dim=0)
    fp = (probs * (1 - targets)).sum(dim=0)
    fn = ((1 - probs) * targets).sum(dim=0)
    return (2 * tp / (2 * tp + fp + fn + eps)).mean()


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return self.features(x)


class Tagger(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(16, len(TAGS))

    def forward(self, x):
        return self.head(self.backbone(x))


def tagged_images(n):
    tags = (torch.rand(n, len(TAGS)) < torch.tensor([0.3, 0.3, 0.2, 0.5])).float()
    img = 0.1 * torch.randn(n, SIZE, SIZE)
    img[:, 5:7, :] += 1.0 * tags[:, 0, None, None]
    img[:, :, 5:7] += 1.0 * tags[:, 1, None, None]
    yy, xx = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    blob = torch.exp(-((xx - 3.0) ** 2 + (yy - 8.0) ** 2) / 3.0)
    img += 1.5 * tags[:, 2, None, None] * blob + 0.5 * tags[:, 3, None, None]
    return img.unsqueeze(1), tags


class FineTuner:
    def __init__(self, model, backbone_lr=1e-3, head_lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.AdamW([
            {"params": model.backbone.parameters(), "lr": backbone_lr},
            {"params": model.head.parameters(), "lr": head_lr},
        ])

    def compute_loss(self, images, tags):
        probs = torch.sigmoid(self.model(images))
        loss = 1.0 - macro_soft_f1(probs, tags)
        return loss, probs

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            self.model.train()
            for images, tags in batches:
                loss, probs = self.compute_loss(images, tags)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch} soft-F1 loss {loss.item():.4f}")


def main():
    torch.manual_seed(1)
    pretrained = Backbone().state_dict()  # stands in for the upstream checkpoint
    torch.manual_seed(0)
    backbone = Backbone()
    backbone.load_state_dict(pretrained)
    model = Tagger(backbone)
    batches = [tagged_images(24) for _ in range(3)]
    FineTuner(model).fit(batches, epochs=2)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
