"""PGD adversarial training of a small fraud-scoring MLP with a Trainer class. The robust
evaluation runs under @torch.no_grad(), and the attack inside it re-enables gradients
for the perturbation only; adversarial examples are detached before training on them."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, EPS, ALPHA, PGD_STEPS, BATCH = 12, 0.15, 0.05, 4, 32


def pgd(model, x, y, steps=PGD_STEPS):
    """L-inf PGD; only the perturbation is differentiated (works under an outer no_grad)."""
    delta = torch.zeros_like(x).uniform_(-EPS, EPS)
    for _ in range(steps):
        with torch.enable_grad():
            delta.requires_grad_(True)
            loss = F.cross_entropy(model(x + delta), y)
            (grad,) = torch.autograd.grad(loss, delta)
        delta = (delta.detach() + ALPHA * grad.sign()).clamp(-EPS, EPS)
    return (x + delta).detach()


class RobustTrainer:
    def __init__(self, model, beta=0.5):
        self.model, self.beta = model, beta
        self.optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        self.history = {"clean": [], "adv": []}

    def train_step(self, x, y):
        self.model.eval()
        x_adv = pgd(self.model, x, y)
        self.model.train()
        clean = F.cross_entropy(self.model(x), y)
        adv = F.cross_entropy(self.model(x_adv), y)
        loss = (1 - self.beta) * clean + self.beta * adv
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.history["clean"].append(clean.item())
        self.history["adv"].append(adv.item())

    @torch.no_grad()
    def evaluate_robust(self, x, y):
        self.model.eval()
        clean_acc = (self.model(x).argmax(1) == y).float().mean().item()
        adv_acc = (self.model(pgd(self.model, x, y, steps=6)).argmax(1) == y).float().mean()
        return clean_acc, adv_acc.item()

    def fit(self, x, y, epochs):
        for epoch in range(epochs):
            for start in range(0, len(y), BATCH):
                self.train_step(x[start:start + BATCH], y[start:start + BATCH])
            clean_acc, adv_acc = self.evaluate_robust(x, y)
            n = len(y) // BATCH
            print(f"epoch {epoch} clean ce {sum(self.history['clean'][-n:]) / n:.4f} "
                  f"adv ce {sum(self.history['adv'][-n:]) / n:.4f} "
                  f"acc {clean_acc:.3f} robust acc {adv_acc:.3f}")


def transactions(n=128):
    y = torch.randint(0, 2, (n,))
    x = torch.randn(n, N_FEATURES) + 0.8 * y[:, None].float() * torch.linspace(1, 0, N_FEATURES)
    return x, y


model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, 2))
RobustTrainer(model).fit(*transactions(), epochs=2)
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
