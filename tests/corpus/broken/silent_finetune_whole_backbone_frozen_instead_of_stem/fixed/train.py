"""Fine-tuning a small "pretrained" CNN on a new 4-class task. The recipe: keep the stem
(first conv block) frozen, fine-tune the later backbone blocks with a small learning rate
and train the new head with a larger one (discriminative learning rates)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, SIZE, BATCH = 4, 12, 32


class Backbone(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU())
        self.blocks = nn.Sequential(
            nn.Conv2d(width, width, 3, padding=1, stride=2), nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, padding=1, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.out_dim = 2 * width

    def forward(self, x):
        return self.blocks(self.stem(x))


class Classifier(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(backbone.out_dim, N_CLASSES)

    def forward(self, x):
        return self.head(self.backbone(x))


def colour_blob_batch():
    """Class k: a blob of colour channel k % 3, in the top half (k < 3) or spread out."""
    y = torch.randint(0, N_CLASSES, (BATCH,))
    x = 0.2 * torch.randn(BATCH, 3, SIZE, SIZE)
    for i, k in enumerate(y.tolist()):
        rows = slice(0, SIZE // 2) if k < 3 else slice(0, SIZE)
        x[i, k % 3, rows] += 1.0
    return x, y


torch.manual_seed(1)
pretrained_state = Backbone().state_dict()  # stands in for an ImageNet checkpoint
torch.manual_seed(0)
model = Classifier(Backbone())
model.backbone.load_state_dict(pretrained_state)
model.backbone.stem.requires_grad_(False)
optimizer = torch.optim.SGD([
    {"params": model.backbone.blocks.parameters(), "lr": 2e-3},
    {"params": model.head.parameters(), "lr": 5e-2},
], momentum=0.9)

for step in range(8):
    x, y = colour_blob_batch()
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
