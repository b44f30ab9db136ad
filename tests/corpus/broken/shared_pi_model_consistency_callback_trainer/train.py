"""Small CNN on synthetic 3x8x8 'shape' images, trained with cross-entropy plus a Pi-model
consistency term provided as a trainer callback."""
import torch
import torch.nn as nn

from callbacks import PiModelConsistency, PrintProgress
from trainer import Trainer

torch.manual_seed(0)
N_CLASSES = 4
templates = torch.randn(N_CLASSES, 3, 8, 8)
loader = []
for _ in range(3):
    labels = torch.randint(0, N_CLASSES, (16,))
    loader.append((templates[labels] + 0.5 * torch.randn(16, 3, 8, 8), labels))

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
    nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, N_CLASSES),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
consistency = PiModelConsistency(weight=0.5)
trainer = Trainer(model, optimizer, callbacks=[consistency, PrintProgress(consistency)])
trainer.fit(loader, epochs=2)
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
