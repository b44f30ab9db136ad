"""Fitting a small polynomial regressor with L-BFGS; the loss is computed before the closure."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_data(n=64):
    x = torch.linspace(-1, 1, n).unsqueeze(1)
    y = 0.5 * x ** 3 - x + 0.1 * torch.randn(n, 1)
    return x, y


def train(model, x, y, steps=4):
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10,
                                  line_search_fn="strong_wolfe")
    criterion = nn.MSELoss()
    for step in range(steps):
        def closure():
            optimizer.zero_grad()
            pred = model(x)
            loss = criterion(pred, y)
            loss.backward()
            return loss

        loss = optimizer.step(closure)
        print(f"step {step} loss {loss.item():.5f}")
    return loss.item()


model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
x, y = make_data()
final = train(model, x, y)
print(f"final loss {final:.5f}")
