"""Linear probe on a frozen convolutional backbone: the "pretrained" backbone (a fixed seed
stands in for a checkpoint) is frozen with requires_grad_(False) and kept in eval mode so its
BatchNorm statistics do not move; only the new linear head is given to AdamW."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, SIZE = 4, 16


class ConvBackbone(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.stage = nn.Sequential(nn.Conv2d(width, 2 * width, 3, stride=2, padding=1),
                                   nn.BatchNorm2d(2 * width), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.out_dim = 2 * width

    def forward(self, x):
        return self.pool(self.stage(self.stem(x))).flatten(1)


class Probe(nn.Module):
    def __init__(self, backbone, n_classes):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(backbone.out_dim, n_classes)

    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()  # frozen BatchNorm: keep the pretrained running statistics
        return self

    def forward(self, x):
        return self.head(self.backbone(x))


def striped_images(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    x = 0.3 * torch.randn(n, 3, SIZE, SIZE)
    for i, k in enumerate(labels.tolist()):
        if k % 2 == 0:
            x[i, k // 2, ::4, :] += 1.0
        else:
            x[i, k // 2, :, ::4] += 1.0
    return x, labels


torch.manual_seed(1)
pretrained = ConvBackbone().state_dict()
torch.manual_seed(0)
backbone = ConvBackbone()
backbone.load_state_dict(pretrained)
backbone.requires_grad_(False)

model = Probe(backbone, N_CLASSES).train()
trainable = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.AdamW(trainable, lr=1e-2, weight_decay=1e-4)
print(f"trainable tensors {len(trainable)} of {len(list(model.parameters()))}")

running_mean_before = backbone.stem[1].running_mean.clone()
for step in range(6):
    images, labels = striped_images(32)
    loss = F.cross_entropy(model(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")

drift = (backbone.stem[1].running_mean - running_mean_before).abs().max().item()
print(f"backbone BN drift {drift:.6f}; backbone grads all None: "
      f"{all(p.grad is None for p in backbone.parameters())}")
print(f"head checksum {sum(p.sum().item() for p in model.head.parameters()):.6f}")
