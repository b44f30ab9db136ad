"""Small CNN on synthetic 1x12x12 'digit' patterns, trained with an input-gradient penalty
for robustness; FGSM accuracy is reported after every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from regularizers import fgsm, input_gradient_penalty

PENALTY_WEIGHT, EPS, N_CLASSES = 0.5, 0.1, 3
torch.manual_seed(0)


def make_patterns(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    images = 0.2 * torch.randn(n, 1, 12, 12)
    for i, c in enumerate(labels.tolist()):
        images[i, 0, 2 + 3 * c:5 + 3 * c, 2:10] += 1.0
    return images, labels


model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.Softplus(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.Softplus(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(16, N_CLASSES),
)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)


def train_epoch(batches):
    model.train()
    for x, y in batches:
        x = x.clone().requires_grad_(True)
        ce = F.cross_entropy(model(x), y)
        penalty = input_gradient_penalty(ce, x)
        loss = ce + PENALTY_WEIGHT * penalty
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return ce.item(), penalty.item()


def robust_accuracy(x, y):
    model.eval()
    x_adv = fgsm(model, F.cross_entropy, x, y, EPS)
    with torch.no_grad():
        return (model(x_adv).argmax(1) == y).float().mean().item()


batches = [make_patterns(16) for _ in range(3)]
x_test, y_test = make_patterns(32)
for epoch in range(2):
    ce, penalty = train_epoch(batches)
    print(f"epoch {epoch} ce {ce:.4f} grad_penalty {penalty:.3e} "
          f"fgsm_acc {robust_accuracy(x_test, y_test):.3f}")
