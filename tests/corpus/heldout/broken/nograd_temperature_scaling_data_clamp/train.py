"""Calibrate a small image classifier: collect its validation logits once, then fit a single
temperature on them by minimising the NLL."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from calibration import TemperatureScaler, expected_calibration_error

torch.manual_seed(0)
CLASSES = 5

classifier = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(16, CLASSES),
)
classifier.eval()

val_images = torch.randn(128, 3, 12, 12)
val_labels = torch.randint(0, CLASSES, (128,))
with torch.no_grad():
    val_logits = 8.0 * classifier(val_images)  # an over-confident network

scaler = TemperatureScaler()
optimizer = torch.optim.Adam(scaler.parameters(), lr=0.05)
print(f"ECE before {expected_calibration_error(val_logits, val_labels):.4f}")
for step in range(6):
    nll = F.cross_entropy(scaler(val_logits), val_labels)
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
    print(f"step {step} nll {nll.item():.4f} T {scaler.temperature.item():.3f}")
with torch.no_grad():
    print(f"ECE after {expected_calibration_error(scaler(val_logits), val_labels):.4f}")
