"""Madry-style adversarial training of a small CNN on 8x8 glyphs: every batch is replaced
by its PGD adversarial version before the update."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from attacks import pgd_linf


def glyphs(n, generator):
    labels = torch.randint(0, 4, (n,), generator=generator)
    protos = torch.zeros(4, 1, 8, 8)
    protos[0, 0, 2:6, 3:5] = 1
    protos[1, 0, 3:5, 1:7] = 1
    protos[2, 0, 1:7, 1:7] = 1
    protos[2, 0, 2:6, 2:6] = 0
    protos[3, 0].fill_diagonal_(1)
    noise = 0.15 * torch.rand(n, 1, 8, 8, generator=generator)
    return (protos[labels] + noise).clamp(0, 1), labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(8 * 16, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(5):
        images, labels = glyphs(32, gen)
        adv = pgd_linf(model, images, labels)
        logits = model(adv)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        robust_acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"step {step} adv loss {loss.item():.4f} robust acc {robust_acc:.3f}")


if __name__ == "__main__":
    main()
