"""FGSM adversarial training (Goodfellow et al.): each batch is trained on an equal mix of
the clean loss and the loss on its fast-gradient-sign perturbation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, BATCH, EPS = 4, 16, 0.1


def make_model():
    return nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))


def fgsm(x, grad, eps):
    return (x + eps * grad.sign()).clamp(0.0, 1.0).detach()


def toy_images(prototypes, n):
    y = torch.randint(0, N_CLASSES, (n,))
    return (prototypes[y] + 0.1 * torch.randn(n, 1, 8, 8)).clamp(0, 1), y


def train(steps=5, alpha=0.5):
    torch.manual_seed(0)
    prototypes = torch.rand(N_CLASSES, 1, 8, 8)
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(steps):
        x, y = toy_images(prototypes, BATCH)
        x.requires_grad_(True)
        clean_loss = F.cross_entropy(model(x), y)
        clean_loss.backward()
        x_adv = fgsm(x, x.grad, EPS)

        adv_loss = F.cross_entropy(model(x_adv), y)
        loss = alpha * clean_loss + (1 - alpha) * adv_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: clean {clean_loss.item():.4f} adv {adv_loss.item():.4f}")


if __name__ == "__main__":
    train()
