"""Classic epoch/batch loop with logging: a running loss accumulated with loss.item()
and a per-batch history list filled with losses.append(loss.item())."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(13)


def main():
    X = torch.randn(24, 6)
    y = X @ torch.randn(6, 1) + 0.3
    loader = DataLoader(TensorDataset(X, y), batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 12), nn.SiLU(), nn.Linear(12, 1))
    criterion = nn.MSELoss()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-2)
    losses = []
    for epoch in range(2):
        running_loss = 0.0
        for i, (inputs, targets) in enumerate(loader):
            optimizer.zero_grad()
            loss = criterion(model(inputs), targets)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            losses.append(loss.item())
        print(f"epoch {epoch} mean loss {running_loss / len(loader):.6f}")
    print(f"history {' '.join(f'{v:.6f}' for v in losses)}")
    print(f"best {min(losses):.6f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
