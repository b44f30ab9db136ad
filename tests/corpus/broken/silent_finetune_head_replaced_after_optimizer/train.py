"""Transfer learning: start from the pretrained 10-class TinyResNet, fine-tune the whole
network on a 3-class colour-blob task with a new classification head."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import TinyResNet, pretrained_state

N_CLASSES = 3


def colour_blobs(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    images = 0.2 * torch.randn(n, 3, 12, 12)
    images[torch.arange(n), labels, 3:9, 3:9] += 1.0
    return images, labels


model = TinyResNet(num_classes=10)
model.load_state_dict(pretrained_state())
torch.manual_seed(0)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=4, gamma=0.5)

# the new task has 3 classes: swap the 10-way head for a fresh one
model.fc = nn.Linear(model.fc.in_features, N_CLASSES)

model.train()
for epoch in range(3):
    for _ in range(2):
        images, labels = colour_blobs(32)
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    scheduler.step()
    print(f"epoch {epoch} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.4f}")
