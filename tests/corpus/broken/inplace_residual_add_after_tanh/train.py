"""Train a small residual MLP on a synthetic regression task, epochs over mini-batches."""
import torch
import torch.nn.functional as F

from model import ResMLP

torch.manual_seed(0)
X = torch.randn(96, 10)
Y = X[:, :3].sum(1) + 0.1 * torch.randn(96)

model = ResMLP(in_dim=10, dim=24, depth=2)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

for epoch in range(2):
    perm = torch.randperm(len(X))
    for start in range(0, len(X), 32):
        idx = perm[start:start + 32]
        pred = model(X[idx])
        loss = F.mse_loss(pred, Y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
