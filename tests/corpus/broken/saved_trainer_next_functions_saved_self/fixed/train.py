"""House-price regressor with a Trainer class that logs the largest residual of each step,
fished out of the loss graph (the pow node's saved input) instead of recomputed."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_FEATURES = 7


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.RMSprop(model.parameters(), lr=lr)
        self.max_residuals = []

    def train_step(self, x, y):
        pred = self.model(x)
        loss = (pred - y).pow(2).mean()
        self.optimizer.zero_grad()
        residual = loss.grad_fn.next_functions[0][0]._saved_self
        loss.backward()
        self.max_residuals.append(residual.abs().max().item())
        self.optimizer.step()
        return loss.item()

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            losses = [self.train_step(x, y) for x, y in batches]
            print(f"epoch {epoch} mse {sum(losses) / len(losses):.4f} "
                  f"max residual {max(self.max_residuals):.4f}")


weights = torch.randn(N_FEATURES, 1)
batches = []
for _ in range(3):
    x = torch.randn(10, N_FEATURES)
    batches.append((x, x @ weights + 0.1 * torch.randn(10, 1)))
model = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ReLU(), nn.Linear(16, 1))
Trainer(model).fit(batches, epochs=2)
