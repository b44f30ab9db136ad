"""Sleep staging from single-channel EEG epochs: a small 1-D CNN is wrapped in the
temperature-scaled classifier used at deployment, so that training, validation and the
exported model all go through the same object."""
import torch
import torch.nn as nn

from calibration import CalibratedClassifier

torch.manual_seed(0)
STAGES, SAMPLES = 5, 64  # W, N1, N2, N3, REM; 64 samples per (downsampled) 30 s epoch


def synthetic_night(n):
    stages = torch.randint(0, STAGES, (n,))
    t = torch.linspace(0, 1, SAMPLES)
    freq = torch.tensor([10.0, 6.0, 4.0, 1.5, 7.0])[stages]  # alpha, theta, spindles, delta
    amp = torch.tensor([0.5, 0.7, 1.0, 2.0, 0.6])[stages]
    eeg = amp[:, None] * torch.sin(2 * torch.pi * freq[:, None] * t) + 0.3 * torch.randn(n, SAMPLES)
    return eeg.unsqueeze(1), stages


class SleepNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 8, kernel_size=7, stride=2, padding=3), nn.ReLU(),
            nn.Conv1d(8, 16, kernel_size=5, stride=2, padding=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        )
        self.classify = nn.Linear(16, STAGES)

    def forward(self, x):
        return self.classify(self.features(x))


def main():
    train_x, train_y = synthetic_night(96)
    val_x, val_y = synthetic_night(32)
    clf = CalibratedClassifier(SleepNet())
    optimizer = torch.optim.AdamW(clf.parameters(), lr=3e-3, weight_decay=1e-4)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(2):
        clf.train()
        for start in range(0, 96, 32):
            x, y = train_x[start:start + 32], train_y[start:start + 32]
            logits = clf(x)
            loss = criterion(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        clf.eval()
        with torch.no_grad():
            val_acc = (clf(val_x).argmax(1) == val_y).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} val acc {val_acc:.3f}")
    print(f"fitted temperature {clf.fit_temperature(val_x, val_y):.2f}")


if __name__ == "__main__":
    main()
