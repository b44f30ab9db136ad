"""Contrastive pre-training of a tabular encoder: the encoder's projections
are augmented in feature space into two views and pulled together with NT-Xent."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from augment import two_views

torch.manual_seed(0)
N_FEATURES, BATCH, TAU = 12, 32, 0.5


def nt_xent(views, tau):
    z = F.normalize(views, dim=-1)
    n = z.size(0) // 2
    sim = z @ z.t() / tau
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


encoder = nn.Sequential(nn.Linear(N_FEATURES, 64), nn.ReLU(), nn.Linear(64, 32))
projector = nn.Sequential(nn.ReLU(), nn.Linear(32, 16))
params = list(encoder.parameters()) + list(projector.parameters())
optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)

table = torch.randn(128, N_FEATURES) @ torch.randn(N_FEATURES, N_FEATURES) * 0.5
for epoch in range(2):
    for start in range(0, 128, BATCH):
        rows = table[start:start + BATCH]
        z = projector(encoder(rows))
        views = two_views(z)
        loss = nt_xent(views, TAU)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} nt-xent {loss.item():.4f}")
