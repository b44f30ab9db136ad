"""Customer-churn classifier on synthetic account features (tenure, spend, tickets, ...)."""
import torch
import torch.nn.functional as F

from layers import ChurnMLP

N_FEATURES = 7


def make_accounts(n):
    x = torch.randn(n, N_FEATURES)
    x[:, 0] = x[:, 0].abs() * 24.0          # tenure in months
    x[:, 1] = 40.0 + 15.0 * x[:, 1]         # monthly spend
    logit = -0.08 * x[:, 0] + 0.05 * (x[:, 1] - 40.0) + 0.8 * x[:, 2]
    y = (torch.sigmoid(logit) > torch.rand(n)).float()
    return x, y


def batches(x, y, batch_size):
    for i in range(0, len(x), batch_size):
        yield x[i:i + batch_size], y[i:i + batch_size]


def train(epochs=2, batch_size=16):
    torch.manual_seed(0)
    x, y = make_accounts(64)
    model = ChurnMLP(N_FEATURES)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-4)
    for epoch in range(epochs):
        model.train()
        for step, (xb, yb) in enumerate(batches(x, y, batch_size)):
            logits = model(xb)
            loss = F.binary_cross_entropy_with_logits(logits, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} step {step}: bce {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        acc = ((model(x) > 0).float() == y).float().mean().item()
    print(f"train accuracy {acc:.3f}")
    return model


if __name__ == "__main__":
    train()
