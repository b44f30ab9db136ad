"""Self-supervised pretraining of sensor-window embeddings with SimSiam: two jittered and
rescaled views of each window, symmetric negative-cosine loss."""
import torch

from model import SimSiam, negative_cosine

torch.manual_seed(0)


def augment(x):
    scale = 1 + 0.2 * torch.randn(x.shape[0], 1)
    return scale * x + 0.1 * torch.randn_like(x)


model = SimSiam()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
windows = torch.randn(128, 24).cumsum(dim=1) / 5
for epoch in range(2):
    for batch in windows.split(32):
        z1, z2, p1, p2 = model(augment(batch), augment(batch))
        loss = 0.5 * (negative_cosine(p1, z2) + negative_cosine(p2, z1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
