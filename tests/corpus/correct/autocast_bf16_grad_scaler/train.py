"""Mixed precision on CPU: bfloat16 autocast for the forward pass, torch.amp.GradScaler
("cpu") around backward and step, with unscale_ before gradient clipping."""
import torch
import torch.nn as nn

torch.manual_seed(9)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def train(epochs=4):
    model = ConvNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scaler = torch.amp.GradScaler("cpu")
    criterion = nn.CrossEntropyLoss()
    images = torch.randn(16, 1, 12, 12)
    labels = torch.randint(0, 5, (16,))
    for epoch in range(epochs):
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(images)
            loss = criterion(logits, labels)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        nn.utils.clip_grad_norm_(model.parameters(), 2.0)
        scaler.step(optimizer)
        scaler.update()
        print(f"epoch {epoch} loss {loss.float().item():.6f} logits {logits.dtype} "
              f"scale {scaler.get_scale():.1f}")
    return model


model = train()
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
