"""Implicit-feedback retrieval: each observed (user, item) click is a positive, a random
item is a sampled negative, and the two-tower scores are trained with a logistic loss."""
import torch
import torch.nn.functional as F

from model import TwoTower

torch.manual_seed(0)
N_USERS, N_ITEMS, N_CLICKS = 40, 60, 480

# users in group g like items in group g (6 groups)
users = torch.randint(0, N_USERS, (N_CLICKS,))
items = (users % 6) * 10 + torch.randint(0, 10, (N_CLICKS,))

model = TwoTower(N_USERS, N_ITEMS)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(2):
    order = torch.randperm(N_CLICKS)
    for start in range(0, N_CLICKS, 160):
        idx = order[start:start + 160]
        u, pos = users[idx], items[idx]
        neg = torch.randint(0, N_ITEMS, pos.shape)
        pos_scores = model(u, pos)
        neg_scores = model(u, neg)
        logits = torch.cat([pos_scores, neg_scores])
        labels = torch.cat([torch.ones_like(pos_scores), torch.zeros_like(neg_scores)])
        loss = F.binary_cross_entropy_with_logits(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

with torch.no_grad():
    hit = (model(users[:50], items[:50]) > model(users[:50], (items[:50] + 30) % N_ITEMS))
print(f"pairwise accuracy {hit.float().mean().item():.3f}")
