"""PGD adversarial training (Madry et al.) of a tabular intrusion-detection classifier:
each batch is attacked with a few L-inf PGD steps and the model is trained on the
adversarial examples. Clean and robust losses are tracked in an EpochStats record."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, N_CLASSES, EPS, STEP_SIZE, PGD_STEPS, BATCH = 16, 4, 0.1, 0.04, 3, 32


@dataclass
class EpochStats:
    clean_loss_sum: float = 0.0
    robust_loss_sum: float = 0.0
    robust_correct: int = 0
    seen: int = 0

    def summary(self):
        return (f"clean {self.clean_loss_sum / self.seen:.4f} "
                f"robust {float(self.robust_loss_sum) / self.seen:.4f} "
                f"robust-acc {self.robust_correct / self.seen:.3f}")


def pgd_attack(model, x, y):
    delta = torch.empty_like(x).uniform_(-EPS, EPS).requires_grad_(True)
    for _ in range(PGD_STEPS):
        loss = F.cross_entropy(model(x + delta), y)
        (grad,) = torch.autograd.grad(loss, delta)
        delta = (delta + STEP_SIZE * grad.sign()).clamp(-EPS, EPS).detach().requires_grad_(True)
    return (x + delta).detach()


def flows(n):
    y = torch.randint(0, N_CLASSES, (n,))
    signature = torch.randn(N_CLASSES, N_FEATURES)
    return 0.6 * signature[y] + 0.5 * torch.randn(n, N_FEATURES), y


model = nn.Sequential(nn.Linear(N_FEATURES, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                      nn.Linear(64, N_CLASSES))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x_all, y_all = flows(8 * BATCH)

for epoch in range(2):
    stats = EpochStats()
    for start in range(0, len(y_all), BATCH):
        x, y = x_all[start:start + BATCH], y_all[start:start + BATCH]
        model.eval()
        x_adv = pgd_attack(model, x, y)
        model.train()
        with torch.no_grad():
            clean_loss = F.cross_entropy(model(x), y, reduction="sum")
        logits_adv = model(x_adv)
        adv_loss = F.cross_entropy(logits_adv, y)
        optimizer.zero_grad()
        adv_loss.backward()
        optimizer.step()
        stats.clean_loss_sum += clean_loss.item()
        stats.robust_loss_sum += adv_loss * len(y)
        stats.robust_correct += int((logits_adv.argmax(1) == y).sum())
        stats.seen += len(y)
    print(f"epoch {epoch} {stats.summary()}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
