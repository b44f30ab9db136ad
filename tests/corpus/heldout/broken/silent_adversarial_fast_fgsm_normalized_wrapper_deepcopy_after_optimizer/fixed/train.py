"""'Fast is better than free' adversarial training (FGSM with a random start) of a small
CNN on 12x12 texture patches. Attacks work in [0, 1] pixel space, so the per-channel
normalisation is folded into the model before training."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

EPS, ALPHA = 8 / 255, 10 / 255
MEAN, STD = torch.tensor([0.45, 0.40, 0.38]), torch.tensor([0.22, 0.21, 0.23])


class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("mean", mean.view(1, -1, 1, 1))
        self.register_buffer("std", std.view(1, -1, 1, 1))

    def forward(self, x):
        return (x - self.mean) / self.std


def with_input_normalization(net, mean, std):
    """Returns a model taking [0, 1] images; the caller's network is left untouched."""
    return nn.Sequential(Normalize(mean, std), copy.deepcopy(net))


def texture_patches(n, generator):
    labels = torch.randint(0, 3, (n,), generator=generator)
    freq = (labels + 1).float().view(-1, 1, 1, 1)
    grid = torch.linspace(0, 3.14, 12).view(1, 1, 1, 12)
    images = 0.5 + 0.3 * torch.sin(freq * grid * 2) + 0.1 * torch.rand(n, 3, 12, 12, generator=generator)
    return images.clamp(0, 1), labels


def fgsm_rs(model, x, y, generator):
    delta = (torch.rand(x.shape, generator=generator) * 2 - 1) * EPS
    delta.requires_grad_(True)
    loss = F.cross_entropy(model((x + delta).clamp(0, 1)), y)
    (grad,) = torch.autograd.grad(loss, delta)
    delta = (delta + ALPHA * grad.sign()).clamp(-EPS, EPS).detach()
    return (x + delta).clamp(0, 1)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(3),
                      nn.Flatten(), nn.Linear(72, 3))
model = with_input_normalization(model, MEAN, STD)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)

for epoch in range(3):
    for _ in range(2):
        x, y = texture_patches(32, gen)
        x_adv = fgsm_rs(model, x, y, gen)
        loss = F.cross_entropy(model(x_adv), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} adversarial loss {loss.item():.4f}")
