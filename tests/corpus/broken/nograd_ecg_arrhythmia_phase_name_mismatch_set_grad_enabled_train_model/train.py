"""Beat-rhythm classification from single-lead ECG windows (normal sinus, premature
ventricular contractions, irregular AF-like rhythm) with a small 1-D CNN. Training follows
the train/val phase loop of the transfer-learning tutorial: one dataloader per phase, the
best validation weights are kept, and gradient tracking is switched per phase."""
import copy
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_CLASSES, LENGTH = 3, 96


def synth_ecg(n, generator):
    """Windows of a synthetic ECG: regular R peaks, an extra wide beat, or jittered peaks."""
    labels = torch.randint(0, N_CLASSES, (n,), generator=generator)
    t = torch.linspace(0, 1, LENGTH)
    phase = t[None, :] * 6.0 + 0.6 * (labels == 2).float()[:, None] * torch.rand(
        n, 1, generator=generator) * torch.sin(9 * math.pi * t)[None, :]
    beats = torch.cos(2 * math.pi * phase).clamp(min=0) ** 12
    wide = torch.exp(-((t - 0.55) / 0.06) ** 2)[None, :] * (labels == 1).float()[:, None]
    noise = 0.1 * torch.randn(n, LENGTH, generator=generator)
    return (beats + 1.2 * wide + noise).unsqueeze(1), labels


class RhythmCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 8, 7, padding=3), nn.BatchNorm1d(8), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(8, 16, 5, padding=2), nn.BatchNorm1d(16), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten())
        self.fc = nn.Linear(16, N_CLASSES)

    def forward(self, x):
        return self.fc(self.features(x))


def train_model(model, dataloaders, criterion, optimizer, num_epochs):
    best_acc, best_state = 0.0, copy.deepcopy(model.state_dict())
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            running_loss, running_correct, seen = 0.0, 0, 0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "training"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    preds = outputs.argmax(1)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)
                running_correct += (preds == labels).sum().item()
                seen += inputs.size(0)
            epoch_acc = running_correct / seen
            print(f"epoch {epoch} {phase} loss {running_loss / seen:.4f} acc {epoch_acc:.3f}")
            if phase == "val" and epoch_acc > best_acc:
                best_acc, best_state = epoch_acc, copy.deepcopy(model.state_dict())
    model.load_state_dict(best_state)
    return model, best_acc


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    datasets = {"train": TensorDataset(*synth_ecg(64, gen)), "val": TensorDataset(*synth_ecg(32, gen))}
    dataloaders = {phase: DataLoader(ds, batch_size=16, shuffle=(phase == "train"))
                   for phase, ds in datasets.items()}
    model = RhythmCNN()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model, best_acc = train_model(model, dataloaders, nn.CrossEntropyLoss(), optimizer, num_epochs=2)
    print(f"best val acc {best_acc:.3f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
