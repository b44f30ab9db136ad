"""Linear probe on top of a 'pretrained' encoder, with encoder outputs cached per batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from embed_cache import cache_size, cached_embed

torch.manual_seed(0)
IN_DIM, EMB, N_CLASSES = 24, 16, 3

encoder = nn.Sequential(nn.Linear(IN_DIM, 32), nn.GELU(), nn.Linear(32, EMB))  # pretrained
probe = nn.Linear(EMB, N_CLASSES)
optimizer = torch.optim.Adam(probe.parameters(), lr=1e-2)

batches = [(torch.randn(6, IN_DIM), torch.randint(0, N_CLASSES, (6,))) for _ in range(3)]

for epoch in range(2):
    for i, (x, y) in enumerate(batches):
        z = cached_embed(encoder, i, x)
        loss = F.cross_entropy(probe(z), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} cached {cache_size()}")
