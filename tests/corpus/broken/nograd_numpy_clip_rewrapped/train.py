"""Demand forecasting: predict non-negative daily counts from a few features.
Predictions are clipped at zero with NumPy before the loss."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
FEATURES = 7


def load_data(n=128):
    x = torch.randn(n, FEATURES)
    counts = F.relu(3 * x[:, 0] + x[:, 1] - 0.5 * x[:, 2] + 0.2 * torch.randn(n))
    return x, counts


def train(epochs=3, batch_size=32):
    x_all, y_all = load_data()
    model = nn.Sequential(nn.Linear(FEATURES, 32), nn.ReLU(), nn.Linear(32, 1))
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for start in range(0, len(x_all), batch_size * 2):
            x = x_all[start:start + batch_size]
            y = y_all[start:start + batch_size]
            pred = torch.tensor(np.clip(model(x).squeeze(-1).detach().numpy(), 0, None))
            loss = F.mse_loss(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} mse {loss.item():.4f}")


train()
