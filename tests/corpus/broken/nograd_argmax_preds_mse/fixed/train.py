"""Three-class classifier on synthetic blobs; the loss compares predicted class ids with the
labels using MSE."""
import torch
import torch.nn as nn

torch.manual_seed(0)
CLASSES, IN_DIM = 3, 5

centers = 3 * torch.randn(CLASSES, IN_DIM)
labels = torch.randint(0, CLASSES, (60,))
inputs = centers[labels] + torch.randn(60, IN_DIM)
batches = [(inputs[i:i + 20], labels[i:i + 20]) for i in range(0, 60, 20)]

model = nn.Sequential(nn.Linear(IN_DIM, 16), nn.ReLU(), nn.Linear(16, CLASSES))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(2):
    correct = 0
    for xb, yb in batches:
        logits = model(xb)
        preds = logits.argmax(dim=1).float()
        loss = criterion(logits, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        correct += int((preds == yb.float()).sum())
    print(f"epoch {epoch} loss {loss.item():.4f} acc {correct / len(labels):.3f}")
