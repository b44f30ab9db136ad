"""Retrieval two-tower model trained with in-batch sampled softmax and logQ correction
(Yi et al. 2019): every other item in the batch is a negative for each user."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, N_CATEGORIES, DIM, TAU = 40, 60, 6, 16, 0.1


class Tower(nn.Module):
    def __init__(self, n_ids, n_side):
        super().__init__()
        self.ids = nn.Embedding(n_ids, DIM)
        self.side = nn.Embedding(n_side, DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, DIM), nn.ReLU(), nn.Linear(DIM, DIM))

    def forward(self, ids, side):
        return F.normalize(self.mlp(torch.cat([self.ids(ids), self.side(side)], -1)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_tower = Tower(N_USERS, 3)
        self.item_tower = Tower(N_ITEMS, N_CATEGORIES)


def in_batch_softmax(user_vecs, item_vecs, item_log_q):
    # items act as keys, as in MoCo: no gradient through the key side
    keys = item_vecs.detach()
    logits = user_vecs @ keys.T / TAU - item_log_q[None, :]
    return F.cross_entropy(logits, torch.arange(len(user_vecs)))


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
item_category = torch.randint(0, N_CATEGORIES, (N_ITEMS,), generator=gen)
user_segment = torch.randint(0, 3, (N_USERS,), generator=gen)
popularity = torch.distributions.Dirichlet(torch.ones(N_ITEMS)).sample()
model = TwoTower()
optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)

for step in range(6):
    users = torch.randint(0, N_USERS, (24,), generator=gen)
    items = torch.multinomial(popularity, 24, replacement=True, generator=gen)
    u = model.user_tower(users, user_segment[users])
    v = model.item_tower(items, item_category[items])
    loss = in_batch_softmax(u, v, popularity[items].log())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} sampled softmax {loss.item():.4f}")
