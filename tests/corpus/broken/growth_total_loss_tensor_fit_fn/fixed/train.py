"""Small CNN on random 'digits'; fit() keeps a running total of the batch losses for the
epoch summary. Each batch is backwarded on its own loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(1, 6, 3, padding=1)
        self.fc = nn.Linear(6 * 4 * 4, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


def fit(model, batches, optimizer):
    model.train()
    total_loss = 0.0
    for x, y in batches:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    return total_loss / len(batches)


def main():
    torch.manual_seed(0)
    batches = [(torch.randn(8, 1, 8, 8), torch.randint(0, 10, (8,))) for _ in range(12)]
    model = SmallCNN()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    avg = fit(model, batches, optimizer)
    print(f"epoch avg loss {avg:.4f}")


if __name__ == "__main__":
    main()
