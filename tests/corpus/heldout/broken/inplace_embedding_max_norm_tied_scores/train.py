"""Train the next-item model on synthetic sessions: each session walks through a cluster of
related items, and the model must predict the next one."""
import torch
import torch.nn.functional as F

from model import NextItemModel

torch.manual_seed(0)
N_ITEMS, HIST, BATCH, N_CLUSTERS = 60, 5, 32, 6


def make_sessions(n):
    cluster = torch.randint(0, N_CLUSTERS, (n, 1))
    offsets = torch.randint(0, N_ITEMS // N_CLUSTERS, (n, HIST + 1))
    items = cluster * (N_ITEMS // N_CLUSTERS) + offsets
    return items[:, :HIST], items[:, HIST]


model = NextItemModel(N_ITEMS)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
history, target = make_sessions(6 * BATCH)

for epoch in range(2):
    for start in range(0, len(target), 2 * BATCH):
        h, t = history[start:start + BATCH], target[start:start + BATCH]
        logits, alignment = model(h, t)
        loss = F.cross_entropy(logits, t) - 0.1 * alignment.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    hit = (logits.topk(10, dim=1).indices == t[:, None]).any(1).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} hit@10 {hit.item():.3f}")
