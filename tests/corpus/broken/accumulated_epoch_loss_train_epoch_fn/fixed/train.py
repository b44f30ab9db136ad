"""Linear-regression-style MLP; train_epoch() keeps an epoch loss total as a tensor."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_loader(n=36, batch=12):
    x = torch.randn(n, 5)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]]) + 0.1 * torch.randn(n, 1)
    return [(x[i:i + batch], y[i:i + batch]) for i in range(0, n, batch)]


def train_epoch(model, loader, optimizer, criterion):
    model.train()
    epoch_loss = torch.zeros(())
    for inputs, targets in loader:
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)
        epoch_loss = epoch_loss + loss.item()
        loss.backward()
        optimizer.step()
    return epoch_loss.item() / len(loader)


model = nn.Sequential(nn.Linear(5, 16), nn.Softplus(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
criterion = nn.SmoothL1Loss()
loader = make_loader()
for epoch in range(2):
    avg = train_epoch(model, loader, optimizer, criterion)
    print(f"epoch {epoch} avg loss {avg:.4f}")
