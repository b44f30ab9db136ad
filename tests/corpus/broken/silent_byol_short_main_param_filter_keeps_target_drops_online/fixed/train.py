"""BYOL self-supervised pretraining on accelerometer windows: an online encoder+projector with a
predictor regresses the projections of an EMA target branch on another augmented view."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

WINDOW, CHANNELS = 32, 3


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class Branch(nn.Module):
    def __init__(self, feat=32, proj=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(CHANNELS, 16, 5, padding=2), nn.ReLU(),
                                     nn.AdaptiveAvgPool1d(4), nn.Flatten(), nn.Linear(64, feat))
        self.projector = mlp(feat, 64, proj)

    def forward(self, x):
        return self.projector(self.encoder(x))


class BYOL(nn.Module):
    def __init__(self):
        super().__init__()
        self.online = Branch()
        self.target = copy.deepcopy(self.online)
        self.predictor = mlp(16, 64, 16)

    def forward(self, v1, v2):
        p1, p2 = self.predictor(self.online(v1)), self.predictor(self.online(v2))
        with torch.no_grad():
            t1, t2 = self.target(v1), self.target(v2)
        loss = 2 - 2 * F.cosine_similarity(p1, t2, dim=-1) + 2 - 2 * F.cosine_similarity(p2, t1, dim=-1)
        return loss.mean()

    @torch.no_grad()
    def update_target(self, tau=0.99):
        for t, o in zip(self.target.parameters(), self.online.parameters()):
            t.lerp_(o, 1 - tau)


def augment(x):
    scale = 1 + 0.1 * torch.randn(x.shape[0], CHANNELS, 1)
    shift = torch.randint(-3, 4, (1,)).item()
    return torch.roll(x * scale, shifts=shift, dims=2) + 0.05 * torch.randn_like(x)


def trainable_parameters(model):
    # the target branch is an EMA of the online branch and must not be stepped by the optimizer
    return [p for name, p in model.named_parameters() if not name.startswith("target.")]


def main():
    torch.manual_seed(0)
    t = torch.linspace(0, 1, WINDOW)
    freqs = torch.randint(1, 5, (64, CHANNELS, 1)).float()
    windows = torch.sin(2 * torch.pi * freqs * t) + 0.1 * torch.randn(64, CHANNELS, WINDOW)
    model = BYOL()
    optimizer = torch.optim.SGD(trainable_parameters(model), lr=0.05, momentum=0.9)
    for step, batch in enumerate(windows.split(16) * 2):
        loss = model(augment(batch), augment(batch))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.update_target()
        print(f"step {step} byol loss {loss.item():.4f}")
    checksum = sum(p.sum().item() for p in model.online.parameters())
    print(f"online checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
