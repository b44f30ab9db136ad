"""Train the credit-risk heads jointly; every head gets its own loss entry for logging."""
import torch

from model import CreditRiskNet


def loan_book(n=64, seed=11):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 10, generator=g)
    score = x[:, 0] - 0.5 * x[:, 1] + 0.3 * x[:, 2]
    targets = {
        "default": (score > 0.4).float(),
        "prepay": (x[:, 3] + 0.2 * x[:, 4] > 0.1).float(),
        "lgd": torch.sigmoid(0.7 * x[:, 5] - 0.2 * score),
    }
    return x, targets


def train(epochs=3, batch=16):
    torch.manual_seed(0)
    x, targets = loan_book()
    model = CreditRiskNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(epochs):
        running = {"default": 0.0, "prepay": 0.0, "lgd": 0.0}
        for start in range(0, x.shape[0], batch):
            xb = x[start:start + batch]
            tb = {k: v[start:start + batch] for k, v in targets.items()}
            losses = model(xb, tb)
            optimizer.zero_grad()
            for name, loss in losses.items():
                loss.backward()
                running[name] += loss.item()
            optimizer.step()
        print(f"epoch {epoch} " + " ".join(f"{k}={v:.4f}" for k, v in running.items()))


if __name__ == "__main__":
    train()
