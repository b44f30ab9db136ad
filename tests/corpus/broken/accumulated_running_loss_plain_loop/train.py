"""Small CNN on random 1x12x12 digits; a running loss is kept for the progress print."""
import torch
import torch.nn as nn

torch.manual_seed(0)

images = torch.randn(40, 1, 12, 12)
labels = torch.randint(0, 4, (40,))

net = nn.Sequential(
    nn.Conv2d(1, 6, 3), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(6 * 5 * 5, 4),
)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

running_loss = 0.0
for i in range(5):
    inputs, targets = images[i * 8:(i + 1) * 8], labels[i * 8:(i + 1) * 8]
    optimizer.zero_grad()
    outputs = net(inputs)
    loss = criterion(outputs, targets)
    running_loss += loss
    running_loss.backward()
    optimizer.step()
    print(f"[batch {i + 1}] avg loss {running_loss / (i + 1):.4f}")
