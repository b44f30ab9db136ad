"""SimSiam pre-training on synthetic sensor descriptors: an encoder (backbone + projection
MLP) and a prediction MLP; the symmetric negative-cosine loss compares each view's prediction
with the other view's projection under a stop-gradient."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, DIM, PRED_DIM, BATCH, STEPS = 30, 32, 8, 32, 6


class SimSiam(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(IN_DIM, 64), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Linear(64, DIM), nn.BatchNorm1d(DIM))
        self.predictor = nn.Sequential(
            nn.Linear(DIM, PRED_DIM), nn.BatchNorm1d(PRED_DIM), nn.ReLU(), nn.Linear(PRED_DIM, DIM))

    def forward(self, x1, x2):
        z1, z2 = self.encoder(x1), self.encoder(x2)
        return self.predictor(z1), self.predictor(z2), z1, z2


def D(p, z):
    """Negative cosine similarity with stop-gradient."""
    return -F.cosine_similarity(p, z.detach(), dim=-1).mean()


def augment(x):
    scale = 1 + 0.2 * torch.randn(x.shape[0], 1)
    return x * scale * (torch.rand_like(x) > 0.1).float() + 0.05 * torch.randn_like(x)


torch.manual_seed(0)
signals = torch.randn(6, IN_DIM)
model = SimSiam()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)

for step in range(STEPS):
    x = signals[torch.randint(0, 6, (BATCH,))] + 0.3 * torch.randn(BATCH, IN_DIM)
    p1, p2, z1, z2 = model(augment(x), augment(x))
    loss = 0.5 * D(p1, z2) + 0.5 * D(p2, z1)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    z_std = F.normalize(z1, dim=1).std(0).mean().item()
    print(f"step {step}: loss {loss.item():.4f} z std {z_std:.4f}")

print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
