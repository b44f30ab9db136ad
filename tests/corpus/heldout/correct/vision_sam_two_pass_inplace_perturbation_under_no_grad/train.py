"""Sharpness-Aware Minimization (SAM) for a small CNN on synthetic textures.

Each step: forward/backward at w, climb to w + e(w) in place, forward/backward again at the
perturbed weights, restore w in place and let the base optimizer step with the second
gradient. Two full forward passes, in-place weight edits between them."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAM:
    def __init__(self, params, base_optimizer, rho=0.05):
        self.params = [p for p in params if p.requires_grad]
        self.base = base_optimizer
        self.rho = rho
        self.eps = {}

    @torch.no_grad()
    def first_step(self):
        grad_norm = torch.norm(torch.stack([p.grad.norm() for p in self.params if p.grad is not None]))
        scale = self.rho / (grad_norm + 1e-12)
        for p in self.params:
            if p.grad is None:
                continue
            e = p.grad * scale
            p.add_(e)
            self.eps[p] = e
        self.zero_grad()

    @torch.no_grad()
    def second_step(self):
        for p, e in self.eps.items():
            p.sub_(e)
        self.eps.clear()
        self.base.step()
        self.zero_grad()

    def zero_grad(self):
        self.base.zero_grad(set_to_none=True)


class TextureCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 12, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(12, 24, 3, padding=1), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(24, n_classes),
        )

    def forward(self, x):
        return self.net(x)


def textures(gen, n=24, size=12, n_classes=4):
    y = torch.randint(0, n_classes, (n,), generator=gen)
    xs = torch.arange(size).float()
    freq = 0.5 + 0.5 * y.float()
    img = torch.sin(freq[:, None, None] * (xs[None, :, None] + xs[None, None, :]))
    return img[:, None] + 0.4 * torch.randn(n, 1, size, size, generator=gen), y


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    model = TextureCNN()
    base = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sam = SAM(model.parameters(), base, rho=0.05)
    for step in range(6):
        images, labels = textures(gen)
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        sam.first_step()
        sharp_loss = F.cross_entropy(model(images), labels)
        sharp_loss.backward()
        sam.second_step()
        print(f"step {step}  loss {loss.item():.4f}  loss at w+e {sharp_loss.item():.4f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"parameter checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
