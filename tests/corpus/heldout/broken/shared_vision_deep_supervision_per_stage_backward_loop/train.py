"""Small segmentation CNN with deep supervision: every encoder stage has a 1x1 auxiliary
head predicting the (downsampled) mask, and the deeper heads get larger loss weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 3
STAGE_WEIGHTS = (0.25, 0.5, 1.0)


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stages = nn.ModuleList([conv_block(1, 8), conv_block(8, 16), conv_block(16, 32)])

    def forward(self, x):
        features = []
        for i, stage in enumerate(self.stages):
            x = stage(x if i == 0 else F.max_pool2d(x, 2))
            features.append(x)
        return features


class DeeplySupervisedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.heads = nn.ModuleList([nn.Conv2d(c, N_CLASSES, 1) for c in (8, 16, 32)])


def make_shapes(n=8, size=16):
    images = 0.2 * torch.randn(n, 1, size, size)
    masks = torch.zeros(n, size, size, dtype=torch.long)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    for i in range(n):
        cy, cx = torch.randint(4, size - 4, (2,)).tolist()
        disk = (yy - cy) ** 2 + (xx - cx) ** 2 < 9
        square = ((yy - cx).abs() < 3) & ((xx - cy).abs() < 3) & ~disk
        masks[i][disk], masks[i][square] = 1, 2
        images[i, 0][disk] += 1.0
        images[i, 0][square] -= 1.0
    return images, masks


def train(model, data, epochs=2):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        for images, masks in data:
            features = model.backbone(images)
            optimizer.zero_grad()
            stage_losses = []
            for feat, head, weight in zip(features, model.heads, STAGE_WEIGHTS):
                logits = F.interpolate(head(feat), size=masks.shape[-2:], mode="bilinear", align_corners=False)
                loss = weight * F.cross_entropy(logits, masks)
                loss.backward()
                stage_losses.append(loss.item())
            optimizer.step()
        print(f"epoch {epoch}: " + " ".join(f"s{i} {l:.4f}" for i, l in enumerate(stage_losses)))


if __name__ == "__main__":
    torch.manual_seed(0)
    train(DeeplySupervisedNet(), [make_shapes() for _ in range(3)])
