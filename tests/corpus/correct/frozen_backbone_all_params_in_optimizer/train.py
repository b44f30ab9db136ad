"""Fine-tuning with a frozen backbone: the backbone's parameters are set to
requires_grad_(False), yet model.parameters() (all of them) go to the optimizer,
as many fine-tuning scripts do. Only the head trains."""
import torch
import torch.nn as nn

torch.manual_seed(10)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(2, 8, 5, padding=2), nn.BatchNorm1d(8), nn.ReLU(),
                                  nn.Conv1d(8, 16, 5, padding=2), nn.ReLU())

    def forward(self, x):
        return self.conv(x).mean(-1)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Classifier()
for p in model.backbone.parameters():
    p.requires_grad_(False)
model.backbone.eval()

optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
criterion = nn.CrossEntropyLoss()
signals = torch.randn(30, 2, 20)
labels = torch.randint(0, 3, (30,))
backbone_before = sum(p.sum().item() for p in model.backbone.parameters())

for epoch in range(2):
    model.head.train()
    for x, y in zip(signals.split(10), labels.split(10)):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.6f}")

backbone_after = sum(p.sum().item() for p in model.backbone.parameters())
print(f"backbone unchanged {backbone_before == backbone_after}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
