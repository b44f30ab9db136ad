"""BPR training of the centred MF recommender (model.py) on synthetic implicit feedback: two
user groups, each clicking mostly inside its own half of the catalogue plus a few globally
popular items."""
import torch
import torch.nn.functional as F

from model import CenteredMF

torch.manual_seed(0)
N_USERS, N_ITEMS, BATCH, STEPS = 40, 30, 64, 10


def sample_clicks(n):
    users = torch.randint(0, N_USERS, (n,))
    group = users % 2
    popular = torch.rand(n) < 0.2
    own_half = group * (N_ITEMS // 2) + torch.randint(0, N_ITEMS // 2, (n,))
    items = torch.where(popular, torch.randint(0, 3, (n,)), own_half)
    return users, items


model = CenteredMF(N_USERS, N_ITEMS)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-2, weight_decay=1e-5)
model.train()
for step in range(STEPS):
    users, pos = sample_clicks(BATCH)
    neg = torch.randint(0, N_ITEMS, (BATCH,))
    pos_score, neg_score = model(users, pos, neg)
    loss = -F.logsigmoid(pos_score - neg_score).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    hit = (pos_score > neg_score).float().mean().item()
    print(f"step {step} bpr {loss.item():.4f} pairwise acc {hit:.3f} "
          f"|centroid| {model.user_centroid.norm().item():.4f}")
