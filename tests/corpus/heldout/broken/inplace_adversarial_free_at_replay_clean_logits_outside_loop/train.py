"""'Free' adversarial training (minibatch replay): every mini-batch is replayed m times; each
replay's backward gives the weight gradient and the perturbation gradient at once. A clean
cross-entropy term is mixed in to keep clean accuracy up. Data: 8x8 'digit' templates."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
EPS, REPLAYS, N_CLASSES = 0.08, 3, 5
TEMPLATES = (torch.rand(N_CLASSES, 64) > 0.5).float()


class FreeATTrainer:
    def __init__(self, batch_size=32):
        self.model = nn.Sequential(nn.Linear(64, 96), nn.ReLU(), nn.Linear(96, 72), nn.ReLU(),
                                   nn.Linear(72, N_CLASSES))
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05, momentum=0.9)
        self.delta = torch.zeros(batch_size, 64)
        self.clean_weight = 0.5

    def sample(self, n):
        y = torch.randint(0, N_CLASSES, (n,))
        return (TEMPLATES[y] + 0.25 * torch.randn(n, 64)).clamp(0, 1), y

    def train_batch(self, x, y):
        clean_loss = F.cross_entropy(self.model(x), y)
        for _ in range(REPLAYS):
            delta = self.delta.clone().requires_grad_(True)
            adv_loss = F.cross_entropy(self.model((x + delta).clamp(0, 1)), y)
            loss = self.clean_weight * clean_loss + (1 - self.clean_weight) * adv_loss
            self.optimizer.zero_grad()
            loss.backward(retain_graph=True)
            self.delta = (delta + EPS * delta.grad.sign()).clamp(-EPS, EPS).detach()
            self.optimizer.step()
        return clean_loss.item(), adv_loss.item()

    def fit(self, epochs=2, batches=2):
        for epoch in range(epochs):
            for b in range(batches):
                x, y = self.sample(self.delta.shape[0])
                clean, adv = self.train_batch(x, y)
                print(f"epoch {epoch} batch {b} clean {clean:.4f} adv {adv:.4f}")


if __name__ == "__main__":
    FreeATTrainer().fit()
