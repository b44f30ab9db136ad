"""Credit-default classifier on synthetic tabular data with 5% flipped labels. After every
backward the per-example gradient norms are computed to find the rows that pull hardest on
the weights, which are usually the mislabeled ones."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from grad_tools import capture_inputs, flag_outliers, per_example_grad_norms

N_ROWS, N_FEATURES = 96, 10


class CreditMLP(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.fc1 = nn.Linear(N_FEATURES, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.taps = {}

    def forward(self, x):
        z1 = self.fc1(x)
        z2 = self.fc2(torch.relu(z1))
        if self.training:
            z1.retain_grad()
            z2.retain_grad()
            self.taps = {"fc1": z1, "fc2": z2}
        return z2.squeeze(1)


def make_data():
    x = torch.randn(N_ROWS, N_FEATURES)
    logit = x[:, 0] - 0.8 * x[:, 1] + 0.5 * x[:, 2] * x[:, 3]
    y = (logit > 0).float()
    flipped = torch.rand(N_ROWS) < 0.05
    y[flipped] = 1 - y[flipped]
    return x, y


def train(epochs=2):
    torch.manual_seed(0)
    x, y = make_data()
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = CreditMLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        suspicious = 0
        for xb, yb in loader:
            loss = F.binary_cross_entropy_with_logits(model(xb), yb)
            inputs = capture_inputs(model.taps)
            optimizer.zero_grad()
            loss.backward()
            norms = per_example_grad_norms(model.taps, inputs)
            suspicious += len(flag_outliers(norms))
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} flagged rows {suspicious}")


if __name__ == "__main__":
    train()
