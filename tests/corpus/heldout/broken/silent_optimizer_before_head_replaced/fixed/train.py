"""Transfer learning: start from a 10-class pre-trained CNN and fine-tune it on a new
4-class task (texture orientation) after swapping the classification layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.features(x))


def orientation_batch(n, size=12):
    labels = torch.randint(0, 4, (n,))
    angle = labels.float() * (torch.pi / 4)
    yy, xx = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    phase = xx * torch.cos(angle)[:, None, None] + yy * torch.sin(angle)[:, None, None]
    images = torch.sin(1.5 * phase) + 0.3 * torch.randn(n, size, size)
    return images.unsqueeze(1), labels


model = SmallCNN(num_classes=10)
pretrained = {k: v.clone() for k, v in SmallCNN(num_classes=10).state_dict().items()}
model.load_state_dict(pretrained)
# the new task has 4 classes
model.fc = nn.Linear(model.fc.in_features, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.5)

for epoch in range(6):
    model.train()
    images, labels = orientation_batch(32)
    loss = F.cross_entropy(model(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"epoch {epoch} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.4f}")
