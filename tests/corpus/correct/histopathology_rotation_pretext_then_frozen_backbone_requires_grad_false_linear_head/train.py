"""Histopathology patch classifier (tumour vs stroma) in two stages: a small CNN backbone
is pre-trained on a rotation-prediction pretext task, then frozen (requires_grad_(False),
BatchNorm kept in eval mode) while only a new linear head is trained on the few labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_patches(n, size=16):
    """Tumour patches: dense blobs of nuclei; stroma: oriented fibres."""
    labels = torch.randint(0, 2, (n,))
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    patches = 0.2 * torch.randn(n, 1, size, size)
    for i in range(n):
        if labels[i] == 1:
            for _ in range(4):
                cy, cx = torch.randint(2, size - 2, (2,))
                patches[i, 0] += torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2).float() / 3)
        else:
            patches[i, 0] += 0.8 * torch.sin((xx + yy * 0.3).float() * 1.2)
    return patches, labels


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return self.body(x)


class PatchClassifier(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone.requires_grad_(False)
        self.head = nn.Linear(16, 2)

    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()  # frozen: keep BatchNorm running statistics fixed
        return self

    def forward(self, x):
        return self.head(self.backbone(x))


def pretext(backbone, patches, steps=4):
    rot_head = nn.Linear(16, 4)
    opt = torch.optim.SGD(list(backbone.parameters()) + list(rot_head.parameters()),
                          lr=0.05, momentum=0.9)
    for step in range(steps):
        k = torch.randint(0, 4, (len(patches),))
        rotated = torch.stack([torch.rot90(p, int(r), dims=(1, 2)) for p, r in zip(patches, k)])
        loss = F.cross_entropy(rot_head(backbone(rotated)), k)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"pretext rotation loss {loss.item():.4f}")


def main():
    unlabeled, _ = make_patches(64)
    labeled, labels = make_patches(32)
    backbone = Backbone()
    pretext(backbone, unlabeled)

    model = PatchClassifier(backbone)
    model.train()
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(trainable, lr=1e-2)
    for epoch in range(4):
        logits = model(labeled)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch} head loss {loss.item():.4f} acc {acc:.3f}")
    print("trainable tensors", len(trainable))
    print("backbone checksum", round(sum(p.sum().item() for p in backbone.parameters()), 4))
    print("head checksum", round(sum(p.sum().item() for p in model.head.parameters()), 4))


if __name__ == "__main__":
    main()
