"""Loan-default prediction on a small table of applicant features with a TabNet encoder
(tabnet.py) and a linear decision head; TabNet's sparsity regulariser is added to the loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from tabnet import TabNetEncoder

N_FEATURES = 10
LAMBDA_SPARSE = 1e-3


class TabNetClassifier(nn.Module):
    def __init__(self, n_d=8):
        super().__init__()
        self.encoder = TabNetEncoder(N_FEATURES, n_d=n_d)
        self.head = nn.Linear(n_d, 2)

    def forward(self, x):
        decision, sparsity = self.encoder(x)
        return self.head(decision), sparsity


def applicants(n=256):
    x = torch.randn(n, N_FEATURES)
    debt_ratio, late_payments, income = x[:, 2], x[:, 5], x[:, 0]
    y = (1.2 * debt_ratio + late_payments - 0.8 * income + 0.3 * torch.randn(n) > 0.5).long()
    return x, y


torch.manual_seed(0)
model = TabNetClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)
x, y = applicants()
for epoch in range(2):
    for i in range(0, len(x), 64):
        xb, yb = x[i:i + 64], y[i:i + 64]
        logits, sparsity = model(xb)
        loss = F.cross_entropy(logits, yb) + LAMBDA_SPARSE * sparsity
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    acc = (model(x)[0].argmax(1) == y).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} train acc {acc:.3f}")
