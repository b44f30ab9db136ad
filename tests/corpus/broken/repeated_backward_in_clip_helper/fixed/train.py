"""Tabular classifier trained with a clipping helper from train_utils."""
import torch
import torch.nn as nn

from train_utils import backward_and_clip, batches

torch.manual_seed(0)

x_train = torch.randn(60, 12)
y_train = (x_train[:, :3].sum(1) > 0).long()

model = nn.Sequential(nn.Linear(12, 32), nn.SiLU(), nn.Dropout(0.1), nn.Linear(32, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
criterion = nn.CrossEntropyLoss()

for epoch in range(2):
    model.train()
    for xb, yb in batches(x_train, y_train, 20):
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        grad_norm = backward_and_clip(loss, model, max_norm=0.5)
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} grad_norm {grad_norm:.4f}")
