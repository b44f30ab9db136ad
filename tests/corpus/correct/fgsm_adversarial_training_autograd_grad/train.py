"""FGSM adversarial training of a small traffic-sign style classifier.

The attack takes the gradient of the loss with respect to a leaf copy of the input using
torch.autograd.grad (so no parameter .grad is touched), builds x_adv, and detaches it.
The training step then uses a 50/50 mix of clean and adversarial losses.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(26)
EPS = 0.05


class SignNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                  nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


def fgsm(model, x, y):
    was_training = model.training
    model.eval()
    x_leaf = x.clone().requires_grad_(True)
    loss = F.cross_entropy(model(x_leaf), y)
    (grad_x,) = torch.autograd.grad(loss, x_leaf)
    model.train(was_training)
    return (x + EPS * grad_x.sign()).clamp(0, 1).detach()


def batch(n=16):
    y = torch.randint(0, 5, (n,))
    x = 0.3 * torch.rand(n, 3, 8, 8)
    for k in range(n):
        x[k, y[k] % 3, :, : 2 + y[k]] += 0.6
    return x.clamp(0, 1), y


def main():
    model = SignNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(6):
        x, y = batch()
        x_adv = fgsm(model, x, y)
        clean_loss = F.cross_entropy(model(x), y)
        adv_loss = F.cross_entropy(model(x_adv), y)
        loss = 0.5 * clean_loss + 0.5 * adv_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} clean {clean_loss.item():.6f} adv {adv_loss.item():.6f} "
              f"|delta|max {(x_adv - x).abs().max().item():.3f}")
    model.eval()
    x, y = batch(64)
    robust = (model(fgsm(model, x, y)).argmax(1) == y).float().mean().item()
    print(f"robust acc {robust:.3f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
