"""Tiny CNN on synthetic 12x12 shape images (bars vs. crosses vs. blobs).

Forward hooks on the ReLU layers keep (a) a detached snapshot of the
activations and a no-grad EMA of how often each channel fires, to spot dead
units across steps, and (b) a live L1 activation penalty that is consumed by
the same step's loss and replaced at the next forward."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivationMonitor:
    def __init__(self, momentum=0.8):
        self.momentum = momentum
        self.snapshot = None
        self.fire_rate = None
        self.penalty = None

    def __call__(self, module, inputs, output):
        self.penalty = output.abs().mean()
        self.snapshot = output.detach()
        with torch.no_grad():
            rate = (output > 0).float().mean(dim=(0, 2, 3))
            if self.fire_rate is None:
                self.fire_rate = rate
            else:
                self.fire_rate = self.momentum * self.fire_rate + (1 - self.momentum) * rate

    def dead_units(self, threshold=0.02):
        return int((self.fire_rate < threshold).sum())


def shapes(n, g):
    y = torch.randint(0, 3, (n,), generator=g)
    img = 0.2 * torch.randn(n, 1, 12, 12, generator=g)
    img[y == 0, :, 5:7, :] += 1.0
    img[y == 1, :, 5:7, :] += 1.0
    img[y == 1, :, :, 5:7] += 1.0
    img[y == 2, :, 3:9, 3:9] += 0.7
    return img, y


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 3),
    )
    monitors = {"relu1": ActivationMonitor(), "relu2": ActivationMonitor()}
    net[1].register_forward_hook(monitors["relu1"])
    net[3].register_forward_hook(monitors["relu2"])
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)

    for step in range(6):
        x, y = shapes(24, g)
        logits = net(x)
        sparsity = sum(m.penalty for m in monitors.values())
        loss = F.cross_entropy(logits, y) + 1e-3 * sparsity
        opt.zero_grad()
        loss.backward()
        opt.step()
        dead = {k: m.dead_units() for k, m in monitors.items()}
        print(f"step {step} loss {loss.item():.4f} dead {dead} "
              f"relu2 mean {monitors['relu2'].snapshot.mean().item():.4f}")

    checksum = sum(p.double().sum().item() for p in net.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
