"""Self-supervised pretraining with a queue of negatives (MoCo-like, shared encoder)."""
import torch

from moco import QueueContrast

torch.manual_seed(0)


def augment(x):
    return x + 0.1 * torch.randn_like(x)


model = QueueContrast()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
data = torch.randn(5, 8, 20)

for step, x in enumerate(data):
    loss = model(augment(x), augment(x))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
