"""Full-batch logistic regression fitted with LBFGS; the closure recomputes the loss
(and its graph) every time the optimizer asks for it."""
import torch
import torch.nn as nn

torch.manual_seed(3)


def train(steps=4):
    x = torch.randn(64, 5)
    true_w = torch.tensor([[1.5], [-2.0], [0.5], [0.0], [1.0]])
    y = (x @ true_w + 0.1 * torch.randn(64, 1) > 0).float()
    model = nn.Linear(5, 1)
    loss_fn = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5,
                                  history_size=5, line_search_fn="strong_wolfe")
    calls = 0

    def closure():
        nonlocal calls
        calls += 1
        optimizer.zero_grad()
        loss = loss_fn(model(x), y) + 1e-3 * model.weight.pow(2).sum()
        loss.backward()
        return loss

    for step in range(steps):
        loss = optimizer.step(closure)
        print(f"step {step} loss {loss.item():.6f}")
    print(f"closure calls {calls}")
    return model


model = train()
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
