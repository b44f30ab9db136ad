"""PGD adversarial training (Madry et al.) of a small 1-D CNN on synthetic
vibration signals; reports clean and robust accuracy per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from attacks import pgd_attack

LENGTH, N_CLASSES = 32, 3


class VibrationCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 8, 5, padding=2), nn.BatchNorm1d(8), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(8, 16, 5, padding=2), nn.BatchNorm1d(16), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1))
        self.head = nn.Linear(16, N_CLASSES)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def signals(n_batches, batch=24, seed=17):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, LENGTH)
    out = []
    for _ in range(n_batches):
        y = torch.randint(0, N_CLASSES, (batch,), generator=g)
        freq = (y.float() + 1)[:, None] * 3.0
        x = torch.sin(2 * torch.pi * freq * t) + 0.3 * torch.randn(batch, LENGTH, generator=g)
        out.append((x[:, None, :], y))
    return out


def train(epochs=2):
    torch.manual_seed(0)
    model = VibrationCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    data = signals(3)
    for epoch in range(epochs):
        robust_correct, seen = 0, 0
        for x, y in data:
            x_adv, adv_logits = pgd_attack(model, x, y)
            loss = F.cross_entropy(adv_logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            robust_correct += (adv_logits.argmax(1) == y).sum().item()
            seen += len(y)
        print(f"epoch {epoch} adv-loss {loss.item():.4f} robust-acc {robust_correct / seen:.3f}")
    return model


if __name__ == "__main__":
    net = train()
    print("checksum", round(sum(p.sum().item() for p in net.parameters()), 4))
